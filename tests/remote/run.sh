#!/bin/bash
# usage: tests/remote/run.sh
# H2 on a remote block device (benchmarks/remote/backing.sh nbd-ram: an NBD server in its own
# network namespace, reached through nbdfuse, a loop device and ext4), and what a user sees when
# that device goes away under a running JVM. Ends with "N passed, N failed[, N skipped]".
#  - data moved to H2 on the remote device reads back right, round after round, with H2's pages
#    evicted between rounds by a memory cap (so every round reads the device);
#  - the server killed mid-run: the JVM exits with status 1 and one line naming H2's file and its
#    device, and no crash report;
#  - the link cut mid-run (the server stops answering): the same, once the FUSE request timeout
#    expires, instead of a silent hang;
#  - 'backing.sh down' leaves no mount, loop device, namespace, process or setting behind.
# Needs root (mounts, loop devices, a network namespace, a memory cgroup); skipped without it.
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
REPO=$(pwd)
BACKING=benchmarks/remote/backing.sh
JAVA=$REPO/build/jdk/bin/java
API=$REPO/build/teraheap-api.jar
passed=0 failed=0 skipped=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

if [ "$(id -u)" != 0 ] || [ ! -d /sys/fs/cgroup/memory ]; then
  echo "SKIP: the remote H2 tests need root and memory cgroups (v1)"
  echo "0 passed, 0 failed, 4 skipped"
  exit 0
fi
[ -x "$JAVA" ] && [ -f "$API" ] || { echo "no build/jdk or API jar: run make first"; echo "0 passed, 1 failed"; exit 1; }

WORK=$(mktemp -d /tmp/teraheap-remote-test.XXXXXX)
CG=/sys/fs/cgroup/memory/teraheap-remote-test
cleanup() {
  "$BACKING" down >/dev/null 2>&1
  [ -d "$CG" ] && { cat "$CG/tasks" 2>/dev/null | xargs -r kill -9 2>/dev/null; sleep 0.5; rmdir "$CG" 2>/dev/null; }
  rm -rf "$WORK"
}
trap cleanup EXIT
"$BACKING" down >/dev/null 2>&1   # a backing left over by an interrupted run
timeout_before=$(cat /proc/sys/fs/fuse/default_request_timeout 2>/dev/null || echo none)
mkdir -p "$CG"
# H1 is 200 MB (dynamic H1 off) and H2 holds 256 MB: under 260 MB, H2's pages cannot all stay in
# the page cache.
echo 260M >"$CG/memory.limit_in_bytes"

# Starts H2Reader on the backing that is up, under the cap, in $WORK/$1; sets $reader_pid.
start_reader() {
  local dir=$WORK/$1 h2
  mkdir -p "$dir"
  h2=$("$BACKING" status | sed -n 's/^H2_DIR=//p')
  (cd "$dir" && exec sh -c "echo \$\$ >$CG/tasks && exec $JAVA -XX:+EnableTeraHeap -XX:-TeraHeapDynamicH1 -Xmx200m \
      -XX:TeraHeapSize=1g -XX:TeraHeapPath=$h2 -cp $API $REPO/tests/remote/H2Reader.java" \
      >"$dir/out" 2>"$dir/err") &
  reader_pid=$!
}

# Waits up to $2 seconds for $WORK/$1/out to hold $3 (a grep pattern).
wait_output() {
  for _ in $(seq $(($2 * 5))); do grep -q "$3" "$WORK/$1/out" 2>/dev/null && return 0; sleep 0.2; done
  return 1
}

# Runs a fault ($2) under a reader in $WORK/$1 and checks how the JVM ended.
fault_case() {
  local name=$1 fault=$2 limit=$3
  start_reader "$name"
  if ! wait_output "$name" 120 "round 2 ok"; then
    fail "$name: the reader did not get going on remote H2: $(tail -n 3 "$WORK/$name/out" "$WORK/$name/err")"
    kill -9 "$reader_pid" 2>/dev/null
    return
  fi
  local start=$SECONDS
  "$BACKING" fault "$fault"
  local waited=0
  while kill -0 "$reader_pid" 2>/dev/null && [ $waited -lt "$limit" ]; do sleep 1; waited=$((waited + 1)); done
  if kill -0 "$reader_pid" 2>/dev/null; then
    fail "$name: the JVM still runs $limit s after the fault (a hang): $(tail -1 "$WORK/$name/out")"
    kill -9 "$reader_pid" 2>/dev/null
    return
  fi
  wait "$reader_pid"; local status=$?
  local err; err=$(cat "$WORK/$name/err")
  if [ "$status" = 1 ] && [ "$(grep -c . "$WORK/$name/err")" = 1 ] \
      && echo "$err" | grep -q "Error: TeraHeap: H2 cannot be read or written at byte [0-9]* of $h2dir/" \
      && echo "$err" | grep -q "(device [0-9]*:[0-9]*, /dev/loop[0-9]* (ext4) mounted on /mnt/teraheap/remote)" \
      && ! ls "$WORK/$name"/hs_err* >/dev/null 2>&1 && ! grep -q "WRONG" "$WORK/$name/out"; then
    pass "$name: exit status 1 after $((SECONDS - start)) s with one line naming H2's file and device, no crash report"
  else
    fail "$name: status $status, stderr: $err $(ls "$WORK/$name"/hs_err* 2>/dev/null)"
  fi
}

# 1. Correct data on the remote device.
if ! "$BACKING" up nbd-ram --size 2g --timeout 5 >"$WORK/up.log" 2>&1; then
  fail "backing.sh up nbd-ram: $(tail -n 3 "$WORK/up.log")"
  echo "$passed passed, $((failed + 3)) failed"
  exit 1
fi
h2dir=$("$BACKING" status | sed -n 's/^H2_DIR=//p')
start_reader data
if wait_output data 180 "round 5 ok" && ! grep -q WRONG "$WORK/data/out"; then
  faults=$(awk '/^pgmajfault /{print $2}' "$CG/memory.stat")
  pass "256 MB moved to H2 on nbd-ram read back right for 5 rounds (the cap's major faults: $faults)"
else
  fail "data on remote H2: $(tail -n 3 "$WORK/data/out" "$WORK/data/err")"
fi
kill -9 "$reader_pid" 2>/dev/null; wait "$reader_pid" 2>/dev/null

# 2. The server dies.
fault_case kill-server kill-server 60
"$BACKING" down >/dev/null 2>&1

# 3. The link goes down: requests stop being answered at all.
"$BACKING" up nbd-ram --size 2g --timeout 5 >"$WORK/up.log" 2>&1 || fail "backing.sh up nbd-ram again"
h2dir=$("$BACKING" status | sed -n 's/^H2_DIR=//p')
fault_case link-down link-down 120

# 4. Nothing left behind.
"$BACKING" down >/dev/null 2>&1
left=()
mount | grep -q " /mnt/teraheap" && left+=("a mount under /mnt/teraheap")
losetup -l -n -O BACK-FILE 2>/dev/null | grep -q "/mnt/teraheap" && left+=("a loop device")
ip netns list | grep -q thremote && left+=("the network namespace")
ip link show thr0 >/dev/null 2>&1 && left+=("the veth pair")
pgrep -f "nbdkit --pidfile /run/teraheap-backing" >/dev/null && left+=("nbdkit")
pgrep -f "nbdfuse --pidfile /run/teraheap-backing" >/dev/null && left+=("nbdfuse")
[ -e /run/teraheap-backing ] && left+=("/run/teraheap-backing")
[ "$(cat /proc/sys/fs/fuse/default_request_timeout 2>/dev/null || echo none)" = "$timeout_before" ] \
  || left+=("the FUSE request timeout")
if [ ${#left[@]} -eq 0 ]; then
  pass "backing.sh down left nothing behind after two faults"
else
  fail "backing.sh down left ${left[*]}"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
