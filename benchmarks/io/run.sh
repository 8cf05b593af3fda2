#!/bin/bash
# usage: benchmarks/io/run.sh [DIR]     (default: /tmp, where H2 goes by default)
# The rate at which a full GC moves objects into H2, beside the file system's own sequential write
# rate measured by fio on the same directory, in the same run.
# JDKS="build/jdk <other JDK>" compares builds; REPEAT (default 3) rounds, each running fio and
# then every (JDK, cache size) pair once in a shuffled order; medians at the end.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args 1 '' "$@"
cd "$(dirname "$0")/../.."
dir=${1:-/tmp}
JDKS=${JDKS:-build/jdk}
REPEAT=${REPEAT:-3}
command -v fio >/dev/null || { echo "installing fio"; apt-get install -y -q fio >/dev/null; }
mkdir -p build/bench
out=build/bench/io.txt
: >"$out"
for round in $(seq "$REPEAT"); do
  sync   # the last run's H2 pages are written back before fio starts
  fio --name=seqwrite --directory="$dir" --rw=write --bs=1m --size=2g --ioengine=psync --direct=1 \
      --end_fsync=1 --output-format=terse --terse-version=3 \
    | awk -F';' -v r="$round" '{printf "round=%d fio fioSeqWriteMBps=%.0f\n", r, $48/1024}' | tee -a "$out"
  rm -f "$dir"/seqwrite.*
  for run in $(for jdk in $JDKS; do for mb in 1024 2048; do echo "$jdk,$mb"; done; done | shuf); do
    jdk=${run%,*}
    mb=${run#*,}
    "$jdk"/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize=4g -XX:TeraHeapPath="$dir" -Xms4g -Xmx4g \
      -Xlog:gc+teraheap -cp build/teraheap-api.jar benchmarks/gc/FullGcPause.java h2 "$mb" 1 \
      | sed -n 's/.*Moved [0-9]* objects (\([0-9]*\)K) to H2 in \([0-9.]*\)ms\( on \([0-9]*\) threads\)\{0,1\}.*/\1 \2 \4/p' \
      | head -1 \
      | awk -v r="$round" -v jdk="$jdk" -v mb="$mb" '{printf "round=%d jdk=%s cacheMB=%d movedMB=%.0f moveMs=%.0f moveMBps=%.0f threads=%s\n",
                r, jdk, mb, $1/1024, $2, ($1/1024)/($2/1000), ($3 == "" ? "1" : $3)}' | tee -a "$out"
  done
done
/usr/bin/python3 - "$out" <<'EOF'
import re, statistics, sys
rows = [dict(kv.split("=", 1) for kv in line.split() if "=" in kv) for line in open(sys.argv[1])]
fio = statistics.median(float(r["fioSeqWriteMBps"]) for r in rows if "fioSeqWriteMBps" in r)
print(f"median fio sequential write: {fio:.0f} MB/s")
for key in sorted({(r["jdk"], int(r["cacheMB"])) for r in rows if "jdk" in r}):
    rates = [float(r["moveMBps"]) for r in rows if r.get("jdk") == key[0] and int(r.get("cacheMB", 0)) == key[1]]
    med = statistics.median(rates)
    print(f"{key[0]} cache {key[1]} MB: move median {med:.0f} MB/s of {len(rates)} runs "
          f"({', '.join(f'{x:.0f}' for x in rates)}), {100 * med / fio:.0f}% of fio")
EOF
