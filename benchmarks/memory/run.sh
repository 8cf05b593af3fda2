#!/bin/bash
# Memory costs of TeraHeap:
#  1. H1 bytes used by the same program on the stock JDK, on ours with TeraHeap off, and on ours
#     with TeraHeap on and H2 empty (no per-object header cost: the three must match);
#  2. DRAM that H2's metadata takes per GB of H2, from Native Memory Tracking's "GC" category
#     with H2 at 1G and at 9G.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build/bench
out=build/bench/memory.txt
: >"$out"
flags=(-XX:+UseParallelGC -Xms512m -Xmx512m)
echo "stock:        $(build/stock-jdk/bin/java "${flags[@]}" benchmarks/memory/HeapFootprint.java)" | tee -a "$out"
echo "teraheap-off: $(build/jdk/bin/java "${flags[@]}" benchmarks/memory/HeapFootprint.java)" | tee -a "$out"
echo "teraheap-on:  $(build/jdk/bin/java "${flags[@]}" -XX:+EnableTeraHeap -XX:TeraHeapSize=1g benchmarks/memory/HeapFootprint.java)" | tee -a "$out"

gc_committed() {   # NMT's committed bytes for the GC category, H2 of $1
  build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize="$1" -Xmx512m -XX:NativeMemoryTracking=summary \
    -XX:+UnlockDiagnosticVMOptions -XX:+PrintNMTStatistics -version 2>/dev/null \
    | sed -n 's/^-  *GC (reserved=[0-9]*, committed=\([0-9]*\))/\1/p'
}
small=$(gc_committed 1g)
large=$(gc_committed 9g)
echo "nmtGcCommitted h2=1g: $((small / 1024))KB, h2=9g: $((large / 1024))KB, per GB of H2: $(( (large - small) / 8 / 1024 ))KB" | tee -a "$out"
