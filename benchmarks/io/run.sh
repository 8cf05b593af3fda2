#!/bin/bash
# The rate at which a full GC moves objects into H2, beside the file system's own sequential write
# rate measured by fio on the same directory.
#   benchmarks/io/run.sh [dir]     (default: /tmp, where H2 goes by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-/tmp}
command -v fio >/dev/null || { echo "installing fio"; apt-get install -y -q fio >/dev/null; }
mkdir -p build/bench
out=build/bench/io.txt
: >"$out"
fio --name=seqwrite --directory="$dir" --rw=write --bs=1m --size=2g --ioengine=psync --direct=1 \
    --end_fsync=1 --output-format=terse --terse-version=3 | awk -F';' '{printf "fioSeqWriteMBps=%.0f\n", $48/1024}' | tee -a "$out"
rm -f "$dir"/seqwrite.*
for mb in 1024 2048; do
  build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize=4g -XX:TeraHeapPath="$dir" -Xms4g -Xmx4g \
    -Xlog:gc+teraheap -cp build/teraheap-api.jar benchmarks/gc/FullGcPause.java h2 "$mb" 1 \
    | sed -n 's/.*Moved [0-9]* objects (\([0-9]*\)K) to H2 in \([0-9.]*\)ms.*/\1 \2/p' | head -1 \
    | awk -v mb="$mb" '{printf "cacheMB=%d movedMB=%.0f moveMs=%.0f moveMBps=%.0f\n", mb, $1/1024, $2, ($1/1024)/($2/1000)}' | tee -a "$out"
done
