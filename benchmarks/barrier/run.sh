#!/bin/bash
# usage: benchmarks/barrier/run.sh
# Barrier cost on a store-heavy program that does not use H2 (StoreHeavy.java: 2^28 reference
# stores per round into old arrays and objects, no allocation): Debian's stock JDK, ours with
# TeraHeap off, and ours with TeraHeap on (H2 mapped, empty), all with the Parallel collector and
# the same heap. REPEAT (default 5) runs of each, in a new random order per repeat; each run's
# median round, then the median over runs. Raw lines: build/bench/barrier.txt.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-5}
mkdir -p build/bench
out=build/bench/barrier.txt
: >"$out"
classes=build/bench/barrier-classes
rm -rf "$classes" && mkdir -p "$classes"
build/stock-jdk/bin/javac -d "$classes" benchmarks/barrier/StoreHeavy.java
heap=(-Xms1g -Xmx1g -XX:+UseParallelGC)
run() {
  case "$1" in
    stock) build/stock-jdk/bin/java "${heap[@]}" -cp "$classes" StoreHeavy ;;
    off)   build/jdk/bin/java "${heap[@]}" -cp "$classes" StoreHeavy ;;
    on)    build/jdk/bin/java "${heap[@]}" -XX:+EnableTeraHeap -XX:TeraHeapSize=1g -cp "$classes" StoreHeavy ;;
  esac
}
for rep in $(seq "$REPEAT"); do
  for config in $(printf '%s\n' stock off on | shuf); do
    echo "config=$config rep=$rep $(run "$config")" | tee -a "$out"
  done
done
stock=$(grep "config=stock " "$out" | sed 's/.*median=\([0-9.]*\).*/\1/' | median)
echo "| JVM | ns per store (median of $REPEAT runs) | against stock |"
echo "| --- | --- | --- |"
for config in stock off on; do
  m=$(grep "config=$config " "$out" | sed 's/.*median=\([0-9.]*\).*/\1/' | median)
  echo "| $config | $m | $(awk -v a="$m" -v b="$stock" 'BEGIN {printf "%.3f", a/b}') |"
done
