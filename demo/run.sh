#!/bin/bash
# usage: demo/run.sh   (make demo runs it)
# The demonstration `make demo` runs: the same program on the TeraHeap JDK with its defaults,
# and on the stock Debian JDK, where the API does nothing; then a Spark job whose cache does not
# fit the heap, with Spark's own cache and with TeraHeap: the same result, and the time of each.
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
echo "== Spark 3.5 (from Maven Central), Shortest Paths at scale 5 with a 512 MB heap: its cache"
echo "   (about 200 MB deserialized) does not fit the heap's storage pool (about 90 MB)."
echo "   Spark's own cache (MEMORY_AND_DISK: what does not fit is spilled serialized) against TeraHeap"
echo "   (benchmarks/spark/bench.py run sssp sd|th --scale 5 --heap 512m; rows in build/bench/demo-spark.csv)"
rm -f build/bench/demo-spark.csv
for config in sd th; do
  benchmarks/spark/bench.py run sssp "$config" --scale 5 --heap 512m --h2 2g --csv build/bench/demo-spark.csv
done
benchmarks/spark/bench.py check build/bench/demo-spark.csv && echo "same result with and without TeraHeap"
python3 - build/bench/demo-spark.csv <<'PY'
import csv, sys
rows = {r["config"]: r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"}
if "sd" in rows and "th" in rows:
    sd, th = float(rows["sd"]["wall_s"]), float(rows["th"]["wall_s"])
    print(f"In this run, TeraHeap took {th:.1f} s against Spark's own cache's {sd:.1f} s: {sd / th:.2f}x as fast")
PY
