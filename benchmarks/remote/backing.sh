#!/bin/bash
# usage: benchmarks/remote/backing.sh up|down|status|fault ...   (each command below)
# Sets up, and tears down, the storage that H2 lives on for the remote-storage study, on one
# machine, as root. Each backing ends in a directory for -XX:TeraHeapPath:
#
#   backing.sh up local                 a directory on the local disk
#   backing.sh up ram   [--size S]      a local RAM disk (tmpfs)
#   backing.sh up nbd-disk [--size S] [--latency-us N] [--rate R]
#   backing.sh up nbd-ram  [--size S] [--latency-us N] [--rate R]
#                                       a remote block device: an NBD server (nbdkit) in its own
#                                       network namespace, serving a file on the local disk
#                                       (nbd-disk) or its own memory (nbd-ram), reached over a veth
#                                       pair; N microseconds added to every request on the server
#                                       (our nbdkit filter, latency-filter.c) and the link shaped
#                                       to R (tc tbf, e.g. 10gbit; default unshaped); consumed
#                                       without an NBD kernel module: nbdfuse exposes the export
#                                       as a file, a loop device makes it a block device, and
#                                       ext4 on it holds H2's file
#   backing.sh down                     tears down whatever is up, leaving nothing behind
#   backing.sh status                   what is up, and the H2 directory
#   backing.sh fault kill-server|link-down
#                                       breaks the remote backing under a running job
#
# 'up' prints the H2 directory as its last line: H2_DIR=<dir>. Only one backing is up at a time.
# The NBD client side gives up on a server that stops answering after the FUSE request timeout
# (--timeout T seconds, default 30, set in /proc/sys/fs/fuse/default_request_timeout while the
# backing is up): the file system then reports I/O errors instead of hanging for ever.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
WORK=${TERAHEAP_WORK:-$HOME/.cache/teraheap}/remote
STATE=/run/teraheap-backing
MNT=/mnt/teraheap
NS=thremote
VETH_HOST=thr0 VETH_NS=thr1
HOST_IP=10.201.0.1 SERVER_IP=10.201.0.2 PORT=10809
FILTER=$REPO/build/remote/latency-filter.so
source "$HERE/../common.sh"

die() { echo "backing.sh: $*" >&2; exit 1; }
log() { echo "backing.sh: $*" >&2; }

need_packages() {
  local missing=()
  command -v nbdkit >/dev/null || missing+=(nbdkit)
  command -v nbdfuse >/dev/null || missing+=(libnbd-bin)
  command -v fusermount3 >/dev/null || missing+=(fuse3)
  [ -f /usr/include/nbdkit-filter.h ] || missing+=(nbdkit-plugin-dev)
  command -v mkfs.ext4 >/dev/null || missing+=(e2fsprogs)
  command -v fio >/dev/null || missing+=(fio)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null \
      || die "cannot install ${missing[*]} with apt-get"
  fi
  if [ ! -f "$FILTER" ] || [ "$HERE/latency-filter.c" -nt "$FILTER" ]; then
    mkdir -p "$(dirname "$FILTER")"
    gcc -O2 -Wall -fPIC -shared -o "$FILTER" "$HERE/latency-filter.c" || die "cannot build $FILTER"
  fi
}

size_bytes() {  # 8g -> bytes
  numfmt --from=iec "$(echo "$1" | tr a-z A-Z)"
}

save() { mkdir -p "$STATE"; echo "$2" >"$STATE/$1"; }
saved() { cat "$STATE/$1" 2>/dev/null || true; }

wait_for() {  # seconds command...
  local t=$1; shift
  for _ in $(seq $((t * 10))); do "$@" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

local_read_ahead_kb() {  # of the block device under $WORK
  local dev name
  mkdir -p "$WORK"
  dev=$(findmnt -no SOURCE --target "$WORK" 2>/dev/null) || return 0
  name=$(basename "$dev")
  [ -e "/sys/class/block/$name" ] || return 0
  [ -e "/sys/class/block/$name/partition" ] && name=$(basename "$(dirname "$(readlink -f "/sys/class/block/$name")")")
  cat "/sys/block/$name/queue/read_ahead_kb" 2>/dev/null || true
}

up_local() {
  mkdir -p "$WORK/local-h2"
  save dir "$WORK/local-h2"
}

up_ram() {
  mkdir -p "$MNT/ram"
  mount -t tmpfs -o "size=$SIZE,mode=0755" teraheap-ram "$MNT/ram"
  mkdir -p "$MNT/ram/h2"
  save dir "$MNT/ram/h2"
}

up_nbd() {  # disk|ram
  local kind=$1
  ip netns add $NS
  save netns $NS
  ip link add $VETH_HOST type veth peer name $VETH_NS
  ip link set $VETH_NS netns $NS
  ip addr add $HOST_IP/30 dev $VETH_HOST
  ip link set $VETH_HOST up
  ip netns exec $NS ip addr add $SERVER_IP/30 dev $VETH_NS
  ip netns exec $NS ip link set $VETH_NS up
  ip netns exec $NS ip link set lo up
  if [ -n "$RATE" ]; then
    # Both directions: writes travel host -> server, reads server -> host.
    tc qdisc add dev $VETH_HOST root tbf rate "$RATE" burst 1mb latency 50ms
    ip netns exec $NS tc qdisc add dev $VETH_NS root tbf rate "$RATE" burst 1mb latency 50ms
  fi

  local plugin
  if [ "$kind" = disk ]; then
    mkdir -p "$WORK"
    truncate -s "$SIZE" "$WORK/nbd-disk.img"
    save image "$WORK/nbd-disk.img"
    # cache=none: the server's page cache does not stand in for its disk.
    plugin=(file "file=$WORK/nbd-disk.img" cache=none)
  else
    plugin=(memory "size=$SIZE")
  fi
  ip netns exec $NS nbdkit --pidfile "$STATE/nbdkit.pid" --ipaddr $SERVER_IP --port $PORT \
    --filter="$FILTER" "${plugin[@]}" "latency-us=$LATENCY_US" \
    || die "nbdkit did not start"
  wait_for 10 test -s "$STATE/nbdkit.pid" || die "nbdkit wrote no pid file"

  # A server that stops answering fails requests after this many seconds instead of hanging them.
  save fuse_timeout "$(cat /proc/sys/fs/fuse/default_request_timeout 2>/dev/null || echo none)"
  if [ -w /proc/sys/fs/fuse/default_request_timeout ]; then
    echo "$TIMEOUT" >/proc/sys/fs/fuse/default_request_timeout
  else
    log "this kernel has no FUSE request timeout: a server that stops answering hangs I/O on H2"
  fi
  mkdir -p "$MNT/nbd"
  nbdfuse --pidfile "$STATE/nbdfuse.pid" "$MNT/nbd/export" "nbd://$SERVER_IP:$PORT" \
    >"$STATE/nbdfuse.log" 2>&1 &
  wait_for 10 test -f "$MNT/nbd/export" || die "nbdfuse did not mount ($(cat "$STATE/nbdfuse.log"))"
  save fuse "$MNT/nbd"

  # Direct I/O from the loop device: otherwise the export's pages would be cached twice, once
  # under the loop device and again under the file system on it.
  local loop
  loop=$(losetup --find --show --direct-io=on "$MNT/nbd/export" 2>/dev/null) \
    || loop=$(losetup --find --show "$MNT/nbd/export") || die "no free loop device"
  save loop "$loop"
  # The same read-ahead as the local disk that H2 would otherwise be on (a loop device starts
  # with 128 KB): mapped files are paged in by it, and the study compares devices, not settings.
  local ra
  ra=$(local_read_ahead_kb)
  [ -n "$ra" ] && echo "$ra" >"/sys/block/$(basename "$loop")/queue/read_ahead_kb"
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop" >/dev/null
  mkdir -p "$MNT/remote"
  mount "$loop" "$MNT/remote"
  save mount "$MNT/remote"
  mkdir -p "$MNT/remote/h2"
  save dir "$MNT/remote/h2"
}

stop() {  # pid: asks it to end, and makes it end after 5 s (a server whose link is down may not)
  local pid=$1
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

down() {
  local m p
  m=$(saved mount); [ -n "$m" ] && { umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; }
  p=$(saved loop); [ -n "$p" ] && { losetup -d "$p" 2>/dev/null || true; }
  m=$(saved fuse)
  if [ -n "$m" ]; then
    fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  fi
  stop "$(saved nbdfuse.pid)"
  stop "$(saved nbdkit.pid)"
  [ -n "$(saved netns)" ] && { ip netns del "$(saved netns)" 2>/dev/null || true; }
  ip link del $VETH_HOST 2>/dev/null || true
  p=$(saved fuse_timeout)
  if [ -n "$p" ] && [ "$p" != none ]; then echo "$p" >/proc/sys/fs/fuse/default_request_timeout; fi
  p=$(saved image); [ -n "$p" ] && rm -f "$p"
  mountpoint -q "$MNT/ram" && umount "$MNT/ram"
  rmdir "$MNT/ram" "$MNT/nbd" "$MNT/remote" "$MNT" 2>/dev/null || true
  rm -rf "$STATE"
}

# The command line, checked in full before anything needs root.
cmd=${1:-}; shift || true
case "$cmd" in
  -h|--help) script_help; exit 0 ;;
  up)
    kind=${1:-}; shift || true
    case "$kind" in
      local|ram|nbd-disk|nbd-ram) ;;
      -h|--help) script_help; exit 0 ;;
      '') script_error "up needs a backing: local, ram, nbd-disk or nbd-ram" ;;
      *) script_error "unknown backing '$kind': local, ram, nbd-disk or nbd-ram" ;;
    esac
    SIZE=8g LATENCY_US=0 RATE= TIMEOUT=30
    while [ $# -gt 0 ]; do
      case "$1" in
        -h|--help) script_help; exit 0 ;;
        --size|--latency-us|--rate|--timeout)
          [ $# -ge 2 ] || script_error "$1 needs a value"
          case "$1" in
            --size) SIZE=$2 ;;
            --latency-us) LATENCY_US=$2 ;;
            --rate) RATE=$2 ;;
            --timeout) TIMEOUT=$2 ;;
          esac
          shift 2 ;;
        *) script_error "unknown option '$1' for up" ;;
      esac
    done
    size_bytes "$SIZE" >/dev/null 2>&1 || script_error "--size $SIZE: give a size such as 8g" ;;
  down|status) [ $# -eq 0 ] || script_error "$cmd takes no arguments, not '$*'" ;;
  fault)
    case "${1:-}" in
      kill-server|link-down) [ $# -eq 1 ] || script_error "fault takes one of kill-server and link-down" ;;
      *) script_error "fault takes kill-server or link-down" ;;
    esac ;;
  '') script_error "needs a command: up, down, status or fault" ;;
  *) script_error "unknown command '$cmd': up, down, status or fault" ;;
esac
[ "$(id -u)" = 0 ] || die "run as root: it mounts file systems, makes loop devices and a network namespace"

case "$cmd" in
  up)
    [ -d "$STATE" ] && die "a backing is already up ($(saved kind)): run 'backing.sh down' first"
    case "$kind" in
      local) up_local ;;
      ram) up_ram ;;
      nbd-disk|nbd-ram)
        need_packages
        trap 'log "setup failed; tearing down"; down' ERR
        up_nbd "${kind#nbd-}"
        trap - ERR ;;
    esac
    case "$kind" in nbd-*) save kind "$kind latency-us=$LATENCY_US${RATE:+ rate=$RATE}" ;; *) save kind "$kind" ;; esac
    log "$(saved kind) is up"
    echo "H2_DIR=$(saved dir)" ;;
  down) down ;;
  status)
    if [ -d "$STATE" ]; then echo "$(saved kind)"; echo "H2_DIR=$(saved dir)"; else echo "nothing is up"; fi ;;
  fault)
    case "$1" in
      kill-server) kill -9 "$(saved nbdkit.pid)" ;;
      link-down) ip link set $VETH_HOST down ;;
    esac ;;
esac
