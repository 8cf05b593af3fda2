#!/bin/bash
# Assembles a self-contained JDK image at $1 from Debian's binaries. With a libjvm.so as $2, that
# library replaces Debian's and the class-data-sharing archives are regenerated for it.
source "$(dirname "$0")/common.sh"
OUT=$1
LIBJVM=${2:-}

resolve_links() {
  # Debian's image links its configuration into /etc; copy the files in so the image stands alone.
  local image=$1 link target src
  find "$image" -type l | while read -r link; do
    target=$(readlink "$link")
    case "$target" in
      /etc/java-17-openjdk/*) src=$STOCK_X$target ;;
      /etc/ssl/certs/java/cacerts) src=$target ;;
      *) src=$(readlink -f "$link" || true) ;;
    esac
    rm -f "$link"
    if [ -n "$src" ] && [ -f "$src" ]; then
      cp "$src" "$link"
    fi
  done
}

tmp=$OUT.tmp
rm -rf "$tmp"
mkdir -p "$(dirname "$OUT")"
cp -a "$STOCK_X/usr/lib/jvm/java-17-openjdk-amd64" "$tmp"
resolve_links "$tmp"
[ -f "$tmp/lib/security/cacerts" ] || die "no CA certificates: install ca-certificates-java"

if [ -n "$LIBJVM" ]; then
  cp "$LIBJVM" "$tmp/lib/server/libjvm.so"
  rm -f "$tmp"/lib/server/classes*.jsa
  # Debian ships one archive for compressed oops and one without; make both for our libjvm.
  "$tmp/bin/java" -Xshare:dump -Xlog:disable -Xlog:all=error >/dev/null \
    || die "could not regenerate the CDS archive with $LIBJVM"
  "$tmp/bin/java" -XX:-UseCompressedOops -Xshare:dump -Xlog:disable -Xlog:all=error >/dev/null \
    || die "could not regenerate the no-compressed-oops CDS archive with $LIBJVM"
fi
rm -rf "$OUT"
mv "$tmp" "$OUT"
