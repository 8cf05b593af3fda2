#!/bin/bash
# usage: benchmarks/gc/free.sh [MB]     (default: 1024)
# The pause of the full GC that frees H2's regions: MB (default 1024) of data moved into H2, then
# dropped (FreeRegions.java), with 32 MB and with 1 MB regions, REPEAT (default 3) runs of each in
# a new random order. Prints medians of that GC's pause, of TeraHeap's own step in it (from
# -Xlog:gc+teraheap), of the time the storage releaser spent giving the freed storage back to the
# file system after the pause (its debug lines), and of the next full GC, which frees nothing. H2's file goes to
# TERAHEAP_BENCH_DIR (default /tmp), preallocated (4 GB). Raw lines: build/bench/gc-free.txt.
# JDKS (default build/jdk) may list other TeraHeap JDKs (an older build) to compare in the same run.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args 1 '[0-9]+' "$@"
cd "$(dirname "$0")/../.."
MB=${1:-1024}
REPEAT=${REPEAT:-3}
H2_DIR=${TERAHEAP_BENCH_DIR:-/tmp}
read -r -a jdks <<<"${JDKS:-build/jdk}"
mkdir -p build/bench
out=build/bench/gc-free.txt
: >"$out"
classes=build/bench/gc-free-classes
rm -rf "$classes" && mkdir -p "$classes"
build/stock-jdk/bin/javac -cp build/teraheap-api.jar -d "$classes" benchmarks/gc/FreeRegions.java
configs=()
for j in "${!jdks[@]}"; do configs+=("$j:32m" "$j:1m"); done
for rep in $(seq "$REPEAT"); do
  for config in $(printf '%s\n' "${configs[@]}" | shuf); do
    jdk=${jdks[${config%%:*}]}; region=${config#*:}
    log=build/bench/gc-free-${config%%:*}-$region-$rep.log
    line=$("$jdk/bin/java" -XX:+EnableTeraHeap -XX:TeraHeapSize=4g -XX:TeraHeapRegionSize="$region" \
      -XX:TeraHeapPath="$H2_DIR" -Xmx1g -Xlog:gc+teraheap=debug:file="$log" \
      -cp build/teraheap-api.jar:"$classes" FreeRegions "$MB")
    step=$(grep -E "freed [1-9][0-9]* regions" "$log" | tail -1 | sed 's/.* in \([0-9.]*\)ms.*/\1/')
    # A JDK without the background releaser punches in the pause and logs no such lines.
    released=$(grep "Gave back the storage" "$log" | sed 's/.* in \([0-9.]*\)ms.*/\1/' |
               awk '{s += $1} END {printf "%.1f", s}')
    echo "$line step=$step released=$released region=$region jdk=$jdk rep=$rep" | tee -a "$out"
  done
done
echo "| JDK | regions of | regions freed | freeing GC | TeraHeap's step in it | storage given back after it | next full GC |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for jdk in "${jdks[@]}"; do
  for region in 32m 1m; do
    rows() { grep "region=$region jdk=$jdk " "$out"; }
    col() { rows | sed "s/.* $1=\([0-9.]*\).*/\1/" | median; }
    echo "| $jdk | $region | $(rows | head -1 | sed 's/.*regions=\([0-9]*\).*/\1/') |" \
         "$(col freeingMs) ms | $(col step) ms | $(col released) ms | $(col nextMs) ms |"
  done
done
