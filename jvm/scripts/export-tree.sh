#!/bin/bash
# The reverse of prepare-tree.sh, for developers who edit inside the build tree: copies the module
# back into the project and regenerates one hook patch per upstream HotSpot file that differs from
# the pristine source.
source "$(dirname "$0")/common.sh"
[ -d "$SRC" ] || die "no build tree at $SRC; run make first"

sync_dir "$SRC/$MODULE_REL" "$REPO_ROOT/jvm/$MODULE_REL"

new=$(mktemp -d)
trap 'rm -rf "$new"' EXIT
changed=$(cd "$SRC" && diff -rq "$PRISTINE/src/hotspot" src/hotspot 2>/dev/null \
           | sed -n "s|^Files $PRISTINE/\(.*\) and .* differ$|\1|p" | grep -v "^$MODULE_REL/" || true)
only_new=$(cd "$SRC" && diff -rq "$PRISTINE/src/hotspot" src/hotspot 2>/dev/null \
           | sed -n 's|^Only in \(src/hotspot[^:]*\): \(.*\)$|\1/\2|p' | grep -v "^$MODULE_REL" || true)
[ -z "$only_new" ] || die "new files outside our module ($only_new): new code belongs in $MODULE_REL"
for f in $changed; do
  name=$(echo "${f#src/hotspot/}" | tr / -).patch
  (cd "$SRC" && diff -u --label "a/$f" --label "b/$f" "$PRISTINE/$f" "$f" >"$new/$name" || true)
done
rm -f "$PATCH_DIR"/*.patch
mkdir -p "$PATCH_DIR"
cp "$new"/*.patch "$PATCH_DIR"/ 2>/dev/null || true
log "exported $(ls "$PATCH_DIR"/*.patch 2>/dev/null | wc -l) hook patches and the module"
