#!/bin/bash
# Fetches Debian's openjdk-17 source package and the matching JRE/JDK binary packages at
# $OPENJDK_DEB_VERSION, and unpacks them under $TERAHEAP_WORK. Does nothing when already done.
source "$(dirname "$0")/common.sh"

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

ensure_deb_src() {
  # apt-get source needs a deb-src entry for the suites the machine already uses.
  if ! grep -rqs "^Types:.*deb-src\|^deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    log "adding a deb-src entry for Debian's main archive"
    $SUDO tee /etc/apt/sources.list.d/teraheap-debian-src.sources >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    $SUDO apt-get update -q >/dev/null
  fi
}

not_served() {
  die "Debian no longer serves openjdk-17 $OPENJDK_DEB_VERSION ($1); pick a served version with OPENJDK_DEB_VERSION=<version> (see: apt-cache showsrc openjdk-17 | grep ^Version)"
}

download() {
  mkdir -p "$DL_DIR"
  cd "$DL_DIR"
  if ! ls openjdk-17_*.dsc >/dev/null 2>&1; then
    ensure_deb_src
    log "downloading the openjdk-17 $OPENJDK_DEB_VERSION source package"
    apt-get source --download-only "openjdk-17=$OPENJDK_DEB_VERSION" >source.log 2>&1 \
      || { $SUDO apt-get update -q >/dev/null; apt-get source --download-only "openjdk-17=$OPENJDK_DEB_VERSION" >source.log 2>&1; } \
      || not_served "source package"
  fi
  if ! ls openjdk-17-jre-headless_*.deb openjdk-17-jdk-headless_*.deb >/dev/null 2>&1; then
    log "downloading openjdk-17-jre-headless and -jdk-headless $OPENJDK_DEB_VERSION"
    apt-get download "openjdk-17-jre-headless=$OPENJDK_DEB_VERSION" "openjdk-17-jdk-headless=$OPENJDK_DEB_VERSION" >binary.log 2>&1 \
      || { $SUDO apt-get update -q >/dev/null; apt-get download "openjdk-17-jre-headless=$OPENJDK_DEB_VERSION" "openjdk-17-jdk-headless=$OPENJDK_DEB_VERSION" >binary.log 2>&1; } \
      || not_served "binary packages"
  fi
}

unpack_source() {
  [ -f "$PRISTINE/.unpacked" ] && return 0
  log "unpacking the source (Debian's own patches applied) into $PRISTINE"
  rm -rf "$PRISTINE"
  dpkg-source --no-check -x "$DL_DIR"/openjdk-17_*.dsc "$PRISTINE" >"$DL_DIR/unpack.log" 2>&1 \
    || die "dpkg-source failed, see $DL_DIR/unpack.log"
  touch "$PRISTINE/.unpacked"
}

unpack_binaries() {
  [ -f "$STOCK_X/.unpacked" ] && return 0
  rm -rf "$STOCK_X"
  for deb in "$DL_DIR"/openjdk-17-jre-headless_*.deb "$DL_DIR"/openjdk-17-jdk-headless_*.deb; do
    dpkg -x "$deb" "$STOCK_X"
  done
  touch "$STOCK_X/.unpacked"
}

download
unpack_source
unpack_binaries
