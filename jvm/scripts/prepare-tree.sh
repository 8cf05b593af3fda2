#!/bin/bash
# Brings the build tree $SRC up to date with the project: our HotSpot module copied in, our hook
# patches applied on top of the pristine source. Only files whose contents change get touched, so
# an incremental HotSpot build recompiles just what we edited.
source "$(dirname "$0")/common.sh"

if [ ! -f "$SRC/.copied" ]; then
  log "copying the pristine tree to $SRC"
  rm -rf "$SRC"
  cp -a "$PRISTINE" "$SRC"
  touch "$SRC/.copied"
fi

# Files our patches touch now, and those they touched last time (a dropped hook must be undone).
touched=$SRC/.teraheap-patched-files
patches=$(ls "$PATCH_DIR"/*.patch 2>/dev/null | sort || true)
patched_files() { [ -z "$patches" ] || sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' $patches | sort -u; }
files=$( (patched_files; cat "$touched" 2>/dev/null || true) | sort -u)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for f in $files; do
  [ -f "$PRISTINE/$f" ] && { mkdir -p "$stage/$(dirname "$f")"; cp "$PRISTINE/$f" "$stage/$f"; }
done
for p in $patches; do
  (cd "$stage" && patch -p1 -s --no-backup-if-mismatch -r - <"$p") \
    || die "hook patch $(basename "$p") does not apply to openjdk-17 $OPENJDK_DEB_VERSION; fix it in $SRC and run 'make export'"
done
for f in $files; do
  if [ -f "$stage/$f" ]; then sync_file "$stage/$f" "$SRC/$f" >/dev/null; fi
done
patched_files >"$touched"

for m in $MODULE_RELS; do
  # A source file dropped from the module: its object and dependency files go too, or an
  # incremental build still lists it and fails to find it.
  sync_dir "$REPO_ROOT/jvm/$m" "$SRC/$m" | sed -n 's|.*/\([^/]*\)\.cpp$|\1|p' | while read -r obj; do
    rm -f "$SRC"/build/*/hotspot/variant-server/libjvm/objs/"$obj".*
  done
done

# What the module looked like when copied in, so that `make export` can tell edits made in
# the tree from edits made in the project and never overwrite the latter.
(cd "$REPO_ROOT/jvm" && find $MODULE_RELS -type f -print0 | sort -z | xargs -0 -r sha256sum) >"$SRC/.teraheap-module-sums"
