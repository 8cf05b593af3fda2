#!/bin/bash
# usage: benchmarks/memory/run.sh
# Memory costs of TeraHeap:
#  1. H1 bytes used by the same program on the stock JDK, on ours with TeraHeap off, and on ours
#     with TeraHeap on and H2 empty (no per-object header cost: the three must match);
#  2. DRAM that H2's metadata takes, from Native Memory Tracking's "GC" category: by capacity (an
#     empty H2 of 1G against one of 1T, a sparse file) and by use (1 GB and 4 GB moved into a 1T H2,
#     then freed); and, from the JVM's log, how much of the committed card table DRAM holds.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
mkdir -p build/bench
out=build/bench/memory.txt
: >"$out"
flags=(-XX:+UseParallelGC -Xms512m -Xmx512m)
echo "stock:        $(build/stock-jdk/bin/java "${flags[@]}" benchmarks/memory/HeapFootprint.java)" | tee -a "$out"
echo "teraheap-off: $(build/jdk/bin/java "${flags[@]}" benchmarks/memory/HeapFootprint.java)" | tee -a "$out"
echo "teraheap-on:  $(build/jdk/bin/java "${flags[@]}" -XX:+EnableTeraHeap -XX:TeraHeapSize=1g benchmarks/memory/HeapFootprint.java)" | tee -a "$out"

gc_committed() {   # NMT's committed bytes for the GC category, an empty H2 of $1
  build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize="$1" -XX:-TeraHeapPreallocate -Xmx512m \
    -XX:NativeMemoryTracking=summary -XX:+UnlockDiagnosticVMOptions -XX:+PrintNMTStatistics -version 2>/dev/null \
    | sed -n 's/^-  *GC (reserved=[0-9]*, committed=\([0-9]*\))/\1/p'
}
small=$(gc_committed 1g)
large=$(gc_committed 1t)
echo "nmtGcCommitted empty H2: 1g: $((small / 1024))KB, 1t: $((large / 1024))KB, 1t costs $(( (large - small) / 1024 ))KB more" | tee -a "$out"
h2dir=$(mktemp -d "${TMPDIR:-/tmp}/teraheap-metadata.XXXXXX")
trap 'rm -rf "$h2dir"' EXIT
for mb in 1024 4096; do
  log=build/bench/memory-h2-$mb.log
  line=$(build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize=1t -XX:-TeraHeapPreallocate \
    -XX:TeraHeapPath="$h2dir" -Xms3g -Xmx3g -XX:NativeMemoryTracking=summary -cp build/teraheap-api.jar \
    -Xlog:gc+teraheap=debug:file=$log benchmarks/memory/H2Metadata.java "$mb")
  # Of the committed cards, the pages DRAM holds: most right after a move, fewest once settled.
  resident=$(sed -n 's/.*cards \([1-9][0-9]*\)K committed, \([0-9]*\)K resident.*/\2/p' "$log" | sort -n \
    | awk 'NR == 1 {min = $1} {max = $1} END {printf "cardsResidentKB max=%d settled=%d", max, min}')
  echo "moved ${mb}MB: $line $resident" | tee -a "$out"
done
