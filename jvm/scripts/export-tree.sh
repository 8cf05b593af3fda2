#!/bin/bash
# The reverse of prepare-tree.sh, for developers who edit inside the build tree: copies the module
# back into the project and regenerates one hook patch per upstream HotSpot file that differs from
# the pristine source.
source "$(dirname "$0")/common.sh"
[ -d "$SRC" ] || die "no build tree at $SRC; run make first"

# The module: take the tree's edits, keep the project's, refuse when both changed a file.
base=$SRC/.teraheap-module-sums
[ -f "$base" ] || die "no record of the module as last copied into $SRC; run make first"
sum_of() { [ -f "$1" ] && sha256sum <"$1" | cut -d' ' -f1 || echo none; }
base_of() { local s; s=$(grep "  $1\$" "$base" | cut -d' ' -f1); echo "${s:-none}"; }
conflicts=()
for m in $MODULE_RELS; do
  mkdir -p "$SRC/$m" "$REPO_ROOT/jvm/$m"
  for f in $(cd "$SRC" && find "$m" -type f); do
    t=$(sum_of "$SRC/$f"); r=$(sum_of "$REPO_ROOT/jvm/$f"); b=$(base_of "$f")
    if [ "$t" = "$r" ] || [ "$t" = "$b" ]; then continue; fi   # same, or only the project changed it
    if [ "$r" = "$b" ]; then mkdir -p "$(dirname "$REPO_ROOT/jvm/$f")"; cp "$SRC/$f" "$REPO_ROOT/jvm/$f"; else conflicts+=("$f"); fi
  done
  for f in $(cd "$REPO_ROOT/jvm" && find "$m" -type f); do
    # Deleted in the tree and untouched in the project since: delete it here too.
    if [ ! -e "$SRC/$f" ] && [ "$(sum_of "$REPO_ROOT/jvm/$f")" = "$(base_of "$f")" ]; then rm "$REPO_ROOT/jvm/$f"; fi
  done
done
[ ${#conflicts[@]} -eq 0 ] || die "both the tree and jvm/ changed ${conflicts[*]}; merge by hand"

new=$(mktemp -d)
trap 'rm -rf "$new"' EXIT
module_pattern="^($(echo $MODULE_RELS | tr ' ' '|'))"
changed=$(cd "$SRC" && diff -rq "$PRISTINE/src/hotspot" src/hotspot 2>/dev/null \
           | sed -n "s|^Files $PRISTINE/\(.*\) and .* differ$|\1|p" | grep -Ev "$module_pattern/" || true)
only_new=$(cd "$SRC" && diff -rq "$PRISTINE/src/hotspot" src/hotspot 2>/dev/null \
           | sed -n 's|^Only in \(src/hotspot[^:]*\): \(.*\)$|\1/\2|p' | grep -Ev "$module_pattern" || true)
[ -z "$only_new" ] || die "new files outside our module ($only_new): new code belongs in $MODULE_RELS"
for f in $changed; do
  name=$(echo "${f#src/hotspot/}" | tr / -).patch
  (cd "$SRC" && diff -u --label "a/$f" --label "b/$f" "$PRISTINE/$f" "$f" >"$new/$name" || true)
done
rm -f "$PATCH_DIR"/*.patch
mkdir -p "$PATCH_DIR"
cp "$new"/*.patch "$PATCH_DIR"/ 2>/dev/null || true
log "exported $(ls "$PATCH_DIR"/*.patch 2>/dev/null | wc -l) hook patches and the module"
