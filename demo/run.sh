#!/bin/bash
# usage: demo/run.sh   (make demo runs it)
# The demonstration `make demo` runs: the same program on the TeraHeap JDK with its defaults,
# and on the stock Debian JDK, where the API does nothing; then a small Spark job with Spark's
# own cache and with TeraHeap, giving the same result.
set -euo pipefail
source "$(dirname "$0")/../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/.."
API=build/teraheap-api.jar

echo "== TeraHeap JDK: java -XX:+EnableTeraHeap (defaults: 8G of H2 in the temp directory, 32M regions)"
# Of the logs, only TeraHeap's layout (gc+init) and its per-full-GC line (gc+teraheap).
out=$(build/jdk/bin/java -XX:+EnableTeraHeap -Xlog:gc+init,gc+teraheap -cp "$API" demo/Demo.java)
echo "$out" | grep '^\[' | grep 'TeraHeap\|teraheap' | grep -v 'Moved 0 objects' || true
echo "$out" | grep -v '^\[' || true
echo
echo "== Stock Debian JDK, same program and jar"
build/stock-jdk/bin/java -cp "$API" demo/Demo.java
echo
echo "== Spark 3.5 (from Maven Central), PageRank at scale 1, Spark's own cache against TeraHeap"
echo "   (benchmarks/spark/bench.py run pr sd|th --scale 1; rows in build/bench/demo-spark.csv)"
rm -f build/bench/demo-spark.csv
for config in sd th; do
  benchmarks/spark/bench.py run pr "$config" --scale 1 --heap 1g --h2 2g --csv build/bench/demo-spark.csv
done
benchmarks/spark/bench.py check build/bench/demo-spark.csv && echo "same result with and without TeraHeap"
