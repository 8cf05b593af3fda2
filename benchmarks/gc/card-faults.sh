#!/bin/bash
# usage: benchmarks/gc/card-faults.sh
# What the first store into a page of H2's cards that a collector gave back costs, with the page
# mapped in by TeraHeap's userfaultfd thread (the default) and by the kernel itself (userfaultfd
# refused by a seccomp filter, tests/jtreg/teraheap/noUserfaultfd.c: the pagemap fallback), next
# to a store whose page is mapped in (CardFaults.java).
# REPEAT (default 3) rounds of both modes in a new random order each; ROUNDS (default 40) timed
# rounds of 512 stores per run; medians. H2's file goes to TERAHEAP_BENCH_DIR (default /tmp).
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
H2_DIR=${TERAHEAP_BENCH_DIR:-/tmp}
ROUNDS=${ROUNDS:-40}
REPEAT=${REPEAT:-3}
mkdir -p build/bench
out=build/bench/card-faults.txt
: >"$out"
classes=build/bench/card-faults-classes
rm -rf "$classes" && mkdir -p "$classes"
build/stock-jdk/bin/javac -cp build/teraheap-api.jar -d "$classes" benchmarks/gc/CardFaults.java
gcc -O -o "$classes/noUserfaultfd" tests/jtreg/teraheap/noUserfaultfd.c

for rep in $(seq "$REPEAT"); do
  for mode in $(printf '%s\n' userfaultfd kernel | shuf); do
    prefix=()
    [ "$mode" = kernel ] && prefix=("$classes/noUserfaultfd")
    line=$("${prefix[@]}" build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize=2g -XX:TeraHeapPath="$H2_DIR" \
      -XX:-TeraHeapPreallocate -Xmx2g -Xmn256m -cp build/teraheap-api.jar:"$classes" CardFaults "$ROUNDS")
    echo "mode=$mode $line rep=$rep" | tee -a "$out"
  done
done

echo "| pages mapped in by | first store into a given-back page | store into a mapped page |"
echo "| --- | --- | --- |"
for mode in userfaultfd kernel; do
  first=$(grep "mode=$mode " "$out" | sed 's/.*usPerFirstStore=\([0-9.]*\).*/\1/' | median)
  resident=$(grep "mode=$mode " "$out" | sed 's/.*usPerStoreResident=\([0-9.]*\).*/\1/' | median)
  echo "| $mode | $first us | $resident us |"
done
