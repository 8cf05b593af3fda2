#!/bin/bash
# usage: benchmarks/gc/run.sh [CACHE_MB ...]        (default: 1024 4096)
# Full-GC pause with the same cache of small linked objects in H1, in H2, and no cache at all; and
# the rate of the move into H2.
# Every configuration runs on build/jdk with TeraHeap on and the same H1 size (cache x 1.5 + 1G),
# REPEAT times (default 3), interleaved, each JVM timing ROUNDS full GCs (default 25) after the one
# that settles the heap and moves the cache. Pauses come from the GC log, to the microsecond; the
# median is taken over all of a configuration's pauses. Raw lines: build/bench/gc-pause.txt.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args -1 '[0-9]+' "$@"
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1024 4096)
H2_DIR=${TERAHEAP_BENCH_DIR:-/tmp}
ROUNDS=${ROUNDS:-25}
REPEAT=${REPEAT:-3}
mkdir -p build/bench
out=build/bench/gc-pause.txt
: >"$out"

echo "| cache | H1 (-Xmx) | full GC, empty heap | full GC, cache in H1 | full GC, cache in H2 | H2 / empty | move rate |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for mb in "${sizes[@]}"; do
  h1=$(( mb * 3 / 2 + 1024 ))m
  h2=$(( mb * 5 / 4 / 1024 + 1 ))g
  for rep in $(seq "$REPEAT"); do
    for mode in empty h1 h2; do
      log=build/bench/gc-$mode-$mb-$rep.log
      line=$(build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize="$h2" -XX:TeraHeapPath="$H2_DIR" \
        -Xms"$h1" -Xmx"$h1" -Xlog:gc,gc+teraheap:file=$log \
        -cp build/teraheap-api.jar benchmarks/gc/FullGcPause.java "$mode" "$mb" "$ROUNDS")
      echo "$line rep=$rep" >>"$out"
      grep "Pause Full" "$log" | tail -n "$ROUNDS" | sed 's/.* \([0-9.]*\)ms$/\1/' >"$log.pauses"
      sed -n 's/.*Moved [1-9][0-9]* objects (\([0-9]*\)K) to H2 in \([0-9.]*\)ms.*/\1 \2/p' "$log" \
        | awk '{printf "%.0f\n", ($1/1024)/($2/1000)}' >"$log.rate"
    done
  done
  e=$(cat build/bench/gc-empty-$mb-*.log.pauses | median)
  c1=$(cat build/bench/gc-h1-$mb-*.log.pauses | median)
  c2=$(cat build/bench/gc-h2-$mb-*.log.pauses | median)
  rate=$(cat build/bench/gc-h2-$mb-*.log.rate | median)
  ratio=$(ratio "$c2" "$e")
  echo "| $mb MB | $h1 | $e ms | $c1 ms | $c2 ms | $ratio | $rate MB/s |"
done
