#!/bin/bash
# usage: benchmarks/gc/scale.sh [GB_IN_H2 ...]      (default: 1 8 32)
# GC pauses as H2 grows: the same program and H1 (-Xms2g -Xmx2g -Xmn512m) with 0 GB (H2 empty) and
# with the given GB of mostly clean data in H2 (H2Scale.java), each timing ROUNDS full GCs and
# ROUNDS minor GCs (default 20) from the GC log.
# REPEAT (default 3) rounds of all sizes, each round in a new random order; medians over all of a
# size's pauses. H2's file goes to TERAHEAP_BENCH_DIR (default /tmp) and needs the largest size's
# room on disk. Raw lines: build/bench/gc-scale.txt.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args -1 '[0-9]+' "$@"
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 8 32)
sizes=(0 "${sizes[@]}")
H2_DIR=${TERAHEAP_BENCH_DIR:-/tmp}
ROUNDS=${ROUNDS:-20}
REPEAT=${REPEAT:-3}
mkdir -p build/bench
out=build/bench/gc-scale.txt
: >"$out"
max_gb=0
for gb in "${sizes[@]}"; do (( gb > max_gb )) && max_gb=$gb; done
h2size=$(( max_gb + max_gb / 8 + 1 ))g
classes=build/bench/gc-classes
rm -rf "$classes" && mkdir -p "$classes"
build/stock-jdk/bin/javac -cp build/teraheap-api.jar -d "$classes" benchmarks/gc/H2Scale.java benchmarks/gc/FullGcPause.java

for rep in $(seq "$REPEAT"); do
  for gb in $(printf '%s\n' "${sizes[@]}" | shuf); do
    log=build/bench/gc-scale-$gb-$rep.log
    line=$(build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize="$h2size" -XX:TeraHeapPath="$H2_DIR" \
      -XX:-TeraHeapPreallocate -Xms2g -Xmx2g -Xmn512m -Xlog:gc,gc+teraheap=debug:file=$log \
      -cp build/teraheap-api.jar:"$classes" H2Scale "$gb" "$ROUNDS")
    echo "$line rep=$rep" | tee -a "$out"
    # The timed GCs are the last ROUNDS of each kind (the moves come before them).
    grep "Pause Full (System.gc())" "$log" | tail -n "$ROUNDS" | sed 's/.* \([0-9.]*\)ms$/\1/' >"$log.full"
    grep "Pause Young (Allocation Failure)" "$log" | tail -n "$ROUNDS" | sed 's/.* \([0-9.]*\)ms$/\1/' >"$log.young"
  done
done

echo "| data in H2 | regions | minor GC | minor / empty | full GC | full / empty |"
echo "| --- | --- | --- | --- | --- | --- |"
e_young=$(cat build/bench/gc-scale-0-*.log.young | median)
e_full=$(cat build/bench/gc-scale-0-*.log.full | median)
for gb in "${sizes[@]}"; do
  young=$(cat build/bench/gc-scale-$gb-*.log.young | median)
  full=$(cat build/bench/gc-scale-$gb-*.log.full | median)
  regions=$(grep "h2GB=$gb " "$out" | head -1 | sed 's/.*regions=\([0-9]*\).*/\1/')
  echo "| $gb GB | $regions | $young ms | $(ratio "$young" "$e_young") |" \
       "$full ms | $(ratio "$full" "$e_full") |"
done
