#!/bin/bash
# Assembles a self-contained JDK image at $1 from Debian's binaries. With a libjvm.so as $2, that
# library replaces Debian's and the class-data-sharing archives are regenerated for it; with the
# HotSpot build directory it came from as $3, JFR's Java side learns that libjvm's event types.
source "$(dirname "$0")/common.sh"
OUT=$1
LIBJVM=${2:-}
HOTSPOT_BUILD=${3:-}

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

# Recordings on the default and profile settings (the .jfc files in DIR) include TeraHeap's events.
enable_teraheap_events() {  # dir
  local jfc
  for jfc in "$1"/*.jfc; do
    grep -q 'jdk.TeraHeapMove' "$jfc" && continue
    python3 - "$jfc" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
events = ["TeraHeapMove", "TeraHeapRegionsFreed", "TeraHeapFull", "TeraHeapEvacuation",
          "TeraHeapCardFaults", "TeraHeapH1Resize"]
block = "".join(f'    <event name="jdk.{e}">\n      <setting name="enabled">true</setting>\n'
                + ('      <setting name="threshold">0 ms</setting>\n' if e == "TeraHeapMove" else "")
                + "    </event>\n\n" for e in events)
open(path, "w").write(text.replace("</configuration>", block + "</configuration>", 1))
PY
  done
}

# JFR's Java side (jdk.jfr) reads the event types from metadata.bin, made from HotSpot's
# metadata.xml, which our hooks extend with TeraHeap's events. It lives in the image's module
# file: jdk.jfr's jmod is rebuilt around a new metadata.bin, and the modules linked again. The
# image's jmods get our libjvm and settings too, so that a runtime jlinked from them is ours.
jfr_event_types() {  # image hotspot-build-dir
  local image=$1 build=$2 work metadata
  metadata=$SRC/src/hotspot/share/jfr/metadata
  work=$OUT.jfr-work
  rm -rf "$work" && mkdir -p "$work"
  "$STOCK_X/usr/lib/jvm/java-17-openjdk-amd64/bin/java" \
    -cp "$build/buildtools/buildtools/hotspot_tools_classes" build.tools.jfr.GenerateJfrFiles \
    --mode metadata --xml "$metadata/metadata.xml" --xsd "$metadata/metadata.xsd" \
    --output "$work/metadata.bin" || die "could not generate JFR's metadata.bin from $metadata"
  mkdir -p "$work/jmods" "$work/jfr"
  cp "$image"/jmods/*.jmod "$work/jmods/"
  (cd "$work/jfr" && "$image/bin/jmod" extract "$image/jmods/jdk.jfr.jmod") || die "could not unpack jdk.jfr.jmod"
  cp "$work/metadata.bin" "$work/jfr/classes/jdk/jfr/internal/types/metadata.bin"
  enable_teraheap_events "$work/jfr/lib/jfr"
  rm "$work/jmods/jdk.jfr.jmod"
  "$image/bin/jmod" create --class-path "$work/jfr/classes" --cmds "$work/jfr/bin" --libs "$work/jfr/lib" \
    --legal-notices "$work/jfr/legal" --man-pages "$work/jfr/man" --target-platform linux-amd64 \
    "$work/jmods/jdk.jfr.jmod" || die "could not rebuild jdk.jfr.jmod"
  # java.base records the hash of every module tied to it: rebuilt without those records, then
  # `jmod hash` records the new ones, for the same modules (not the upgradeable ones).
  local hashed
  hashed=$("$image/bin/jmod" describe "$image/jmods/java.base.jmod" | awk '$1 == "hashes" { print $2 }' \
           | sed 's/\./\\./g' | paste -sd'|')
  [ -n "$hashed" ] || die "java.base.jmod records no module hashes: not the jmod this script expects"
  mkdir -p "$work/base"
  (cd "$work/base" && "$image/bin/jmod" extract "$image/jmods/java.base.jmod") || die "could not unpack java.base.jmod"
  "$image/bin/java" --add-exports java.base/jdk.internal.org.objectweb.asm=ALL-UNNAMED \
    "$(dirname "$0")/StripModuleHashes.java" "$work/base/classes/module-info.class" \
    || die "could not take the module hashes out of java.base"
  cp "$LIBJVM" "$work/base/lib/server/libjvm.so"
  rm "$work/jmods/java.base.jmod"
  "$image/bin/jmod" create --class-path "$work/base/classes" --cmds "$work/base/bin" --config "$work/base/conf" \
    --header-files "$work/base/include" --legal-notices "$work/base/legal" --libs "$work/base/lib" \
    --man-pages "$work/base/man" --target-platform linux-amd64 "$work/jmods/java.base.jmod" \
    && "$image/bin/jmod" hash --module-path "$work/jmods" --hash-modules "^($hashed)\$" "$work/jmods/java.base.jmod" >/dev/null \
    || die "could not rebuild java.base.jmod with the new module hashes"
  "$image/bin/jlink" --module-path "$work/jmods" --add-modules ALL-MODULE-PATH --output "$work/linked" \
    2> >(grep -v "incubator modules" >&2) || die "could not link the JDK's modules with JFR's new event types"
  cp "$work/linked/lib/modules" "$image/lib/modules"
  cp "$work/jmods/jdk.jfr.jmod" "$work/jmods/java.base.jmod" "$image/jmods/"
  rm -rf "$work"
  enable_teraheap_events "$image/lib/jfr"
}

if [ -n "$LIBJVM" ]; then
  [ -z "$HOTSPOT_BUILD" ] || jfr_event_types "$tmp" "$HOTSPOT_BUILD"
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
