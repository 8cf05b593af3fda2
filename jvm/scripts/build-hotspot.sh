#!/bin/bash
# Configures (once per debug level) and builds HotSpot's libjvm.so from $SRC.
#   build-hotspot.sh release|fastdebug
source "$(dirname "$0")/common.sh"
LEVEL=${1:-release}
# Inside the source tree, where OpenJDK expects it: with ccache on, dependency files hold paths
# relative to the tree, and a build dir outside it loses every header dependency.
BUILD=$SRC/build/$LEVEL

# Configure as Debian does where it shows in the VM (version, vendor, JVM features), so that with
# TeraHeap off our libjvm reports and behaves as Debian's.
version=$(upstream_version)
args=(
  --with-boot-jdk="$STOCK_JDK"
  --with-debug-level="$LEVEL"
  --with-jvm-variants=server
  --with-jvm-features=zgc
  --with-version-string="$(debian_version_string)"
  --with-vendor-name=Debian
  --with-vendor-url=https://tracker.debian.org/pkg/openjdk-17
  --with-vendor-bug-url=https://bugs.debian.org/src:openjdk-17
  --with-vendor-vm-bug-url=https://bugs.debian.org/src:openjdk-17
  --with-native-debug-symbols=external
  --disable-warnings-as-errors
  --with-pcsclite=bundled  # a Debian-only option that wants a value; only the class library uses it
  --with-jobs="$(nproc)"
)
date=$(sed -n 's/^JAVA_VERSION_DATE="\(.*\)"/\1/p' "$STOCK_JDK/release")
[ -n "$date" ] && args+=(--with-version-date="$date")
if command -v ccache >/dev/null; then args+=(--enable-ccache); fi

stamp=$BUILD/.teraheap-configure-args
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "${args[*]}" ]; then
  log "configuring the $LEVEL build in $BUILD"
  rm -rf "$BUILD"
  mkdir -p "$BUILD"
  (cd "$BUILD" && bash "$SRC/configure" "${args[@]}" >teraheap-configure.log 2>&1) \
    || die "configure failed, see $BUILD/teraheap-configure.log"
  echo "${args[*]}" >"$stamp"
fi

log "building libjvm.so ($LEVEL) in $BUILD (about 20 minutes from scratch on 2 cores, log: $BUILD/teraheap-build.log)"
(cd "$BUILD" && make hotspot LOG=warn >teraheap-build.log 2>&1) || { grep -v ALL_NAMED_TESTS "$BUILD/teraheap-build.log" | tail -40 >&2; die "HotSpot build failed, see $BUILD/teraheap-build.log"; }
test -f "$BUILD/support/modules_libs/java.base/server/libjvm.so" || die "no libjvm.so after the build"
