#!/bin/bash
# usage: benchmarks/spark/agent-overhead.sh [WORKLOAD [SCALE]]     (default: pr 1)
# What teraheap-spark.jar costs a stock JVM: the same workload on Debian's JDK with and without
# -javaagent:build/teraheap-spark.jar, REPEAT times each (default 5), interleaved. Prints the
# medians of the workload's own time and of the whole JVM's wall time.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args 2 '' "$@"
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
W=${1:-pr} SCALE=${2:-1} REPEAT=${REPEAT:-5}
CP=build/teraheap-bench-spark.jar:$(cat build/spark-classpath.txt)
OPTS=$(grep -v '^#' benchmarks/spark/java-options | tr '\n' ' ')
out=build/bench/agent-overhead.txt
mkdir -p build/bench && : >"$out"
for i in $(seq "$REPEAT"); do
  for mode in without with; do
    agent=(); [ $mode = with ] && agent=(-javaagent:build/teraheap-spark.jar)
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    line=$("$STOCK_JDK/bin/java" $OPTS -Xmx1g "${agent[@]}" -cp "$CP" org.teraheap.bench.SparkBench \
      "$W" --scale "$SCALE" 2>/dev/null | grep '^RESULT')
    end=$(date +%s.%N)
    echo "$mode $(echo "$line" | sed 's/.*seconds=\([0-9.]*\).*/\1/') $(python3 -c "print(round($end - $start, 3))")" >>"$out"
  done
done
for mode in without with; do
  echo "$mode agent: workload $(grep "^$mode " "$out" | cut -d' ' -f2 | median) s," \
       "JVM wall $(grep "^$mode " "$out" | cut -d' ' -f3 | median) s (median of $REPEAT, $W scale $SCALE, stock JDK)"
done
