# Shared settings for the JVM build scripts. Sourced, not run.
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Everything large (downloads, the unpacked OpenJDK tree, build trees) lives here, outside the repo.
TERAHEAP_WORK=${TERAHEAP_WORK:-$HOME/.cache/teraheap}
# The Debian openjdk-17 version whose source we patch and whose binaries we reuse.
OPENJDK_DEB_VERSION=${OPENJDK_DEB_VERSION:-17.0.19+10-1~deb12u2}

DL_DIR=$TERAHEAP_WORK/dl/$OPENJDK_DEB_VERSION
PRISTINE=$TERAHEAP_WORK/pristine-$OPENJDK_DEB_VERSION   # Debian source, Debian patches applied, never edited
SRC=$TERAHEAP_WORK/src-$OPENJDK_DEB_VERSION             # the tree we build: pristine + our module + hooks
STOCK_X=$TERAHEAP_WORK/stock-x-$OPENJDK_DEB_VERSION     # the two binary debs, dpkg -x'd
STOCK_JDK=$TERAHEAP_WORK/stock-jdk-$OPENJDK_DEB_VERSION # stock JDK image, self-contained (boot JDK too)

# Our HotSpot module inside the tree: its portable part, and its Linux part (as ZGC's).
MODULE_RELS="src/hotspot/share/gc/teraheap src/hotspot/os/linux/gc/teraheap"
PATCH_DIR=$REPO_ROOT/jvm/patches

log() { echo "[teraheap] $*" >&2; }
die() { echo "[teraheap] error: $*" >&2; exit 1; }

# The upstream part of a Debian version: 17.0.19+10-1~deb12u2 -> 17.0.19+10
upstream_version() { echo "${OPENJDK_DEB_VERSION%%-*}"; }

# What `java -version` of the Debian build reports: 17.0.19+10-1~deb12u2 -> 17.0.19+10-1-deb12u2-Debian
debian_version_string() { local v=${OPENJDK_DEB_VERSION//\~/-}; echo "$v-Debian"; }

# Copy $1 to $2 only when the contents differ, so make's timestamps change only for real edits.
sync_file() {
  if [ ! -e "$2" ] || ! cmp -s "$1" "$2"; then
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2"
    echo "$2"
  fi
}

# Mirror directory $1 into $2 by content: changed files copied, files missing from $1 removed
# (and printed).
sync_dir() {
  local from=$1 to=$2 f
  mkdir -p "$to"
  (cd "$from" && find . -type f) | while read -r f; do sync_file "$from/$f" "$to/$f" >/dev/null; done
  (cd "$to" && find . -type f) | while read -r f; do [ -e "$from/$f" ] || { rm -f "$to/$f"; echo "$to/$f"; }; done
}

# The heart of each JVM crash report under directory $1: what failed, where, and the first native
# and Java frames. CI keeps what tests print, not their work directories. (jtreg keeps a failed
# test's crash report only with -retain:fail: it empties the scratch directory between tests.)
print_crash_reports() {
  local f
  for f in $(find "$1" -name 'hs_err_pid*.log' 2>/dev/null | head -3); do
    echo "---- $f ----"
    sed -n '/^# A fatal error/,/^# If you would like/p' "$f" | grep -v -E '^#\s*$|^# If you would' | head -12
    grep -m1 -E '^Current thread' "$f"
    sed -n '/^Native frames:/,/^$/p' "$f" | head -25
    sed -n '/^Java frames:/,/^$/p' "$f" | head -10
  done
}
