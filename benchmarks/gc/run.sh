#!/bin/bash
# Full-GC pause with the same cache in H1, in H2, and no cache; and the move rate.
#   benchmarks/gc/run.sh [cache MB ...]        (default: 1024 4096)
# Every configuration runs on build/jdk with TeraHeap on and the same H1 size; results go to
# build/bench/gc-pause.txt as key=value lines, one per run.
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 4096)
mkdir -p build/bench
out=build/bench/gc-pause.txt
: >"$out"
H2_DIR=${TERAHEAP_BENCH_DIR:-/tmp}
for mb in "${sizes[@]}"; do
  h1=$(( (mb * 3 / 2 + 1024) ))m                     # room for the cache in H1 with headroom
  h2=$(( (mb * 5 / 4 / 1024 + 1) ))g
  for mode in empty h1 h2; do
    build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize="$h2" -XX:TeraHeapPath="$H2_DIR" \
      -Xms"$h1" -Xmx"$h1" -Xlog:gc+teraheap=info:file=build/bench/gc-$mode-$mb.log \
      -cp build/teraheap-api.jar benchmarks/gc/FullGcPause.java "$mode" "$mb" 5 | tee -a "$out"
  done
done
