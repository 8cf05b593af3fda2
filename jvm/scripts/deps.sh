#!/bin/bash
# Installs the Debian packages that building and testing need, when any is missing.
source "$(dirname "$0")/common.sh"

PACKAGES=(
  # to fetch and unpack Debian's source and binaries
  dpkg-dev xz-utils ca-certificates-java
  # OpenJDK's configure and make
  autoconf make zip unzip file g++ gcc
  libasound2-dev libcups2-dev libfontconfig1-dev libx11-dev libxext-dev
  libxrender-dev libxrandr-dev libxtst-dev libxt-dev
  # optional build cache, used when present
  ccache
  # OpenJDK's test harness
  jtreg7
  # the Spark agent, the Spark workloads (Spark comes from Maven Central), the suite's figures
  # and the JFR settings the image gets (python3)
  maven python3 python3-matplotlib
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
log "installing build dependencies: ${missing[*]}"
$SUDO apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
  || die "apt-get could not install ${missing[*]}; install them by hand and run make again"
