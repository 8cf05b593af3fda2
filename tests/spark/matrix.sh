#!/bin/bash
# usage: tests/spark/matrix.sh [VERSION ...]
# The agent's checks (tests/spark/run.sh, every check but the workloads) on every Spark release
# that runs on Java 17, or on the VERSIONs given; and, for a release whose workloads build (its
# GraphX and MLlib are on Maven Central), PageRank and SQL in Spark-SD and TeraHeap, whose results
# must agree. Each release is fetched and built first (benchmarks/spark/build-release.sh). Not
# part of make test: about 4 minutes per release. One line per release, then "N passed, N failed"
# (releases); each release's log is build/spark-matrix/VERSION.log.
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
script_args -1 '[0-9]+\.[0-9]+\.[0-9]+' "$@"
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
set +e
RELEASES=(3.5.0 3.5.1 3.5.2 3.5.3 3.5.4 3.5.5 3.5.6 3.5.7 3.5.8 3.5.9
          4.0.0 4.0.1 4.0.2 4.0.3 4.0.4 4.1.0 4.1.1 4.1.2 4.1.3 4.2.0)
[ $# -eq 0 ] || RELEASES=("$@")
OUT=build/spark-matrix
mkdir -p "$OUT"
passed=0 failed=0
for v in "${RELEASES[@]}"; do
  log=$OUT/$v.log
  workloads="pr sql"
  if ! benchmarks/spark/build-release.sh "$v" >"$log" 2>&1; then
    # Maven Central lacks the release's GraphX or MLlib: the checks need Spark SQL alone. Any
    # other failure (the workloads do not compile against it) fails the release.
    if ! grep -q "Could not resolve dependencies\|could not be resolved" "$log"; then
      failed=$((failed + 1)); echo "FAIL spark-$v: the workloads do not build (log: $log)"; continue
    fi
    workloads=""
    benchmarks/spark/build-release.sh "$v" checks >>"$log" 2>&1 \
      || { failed=$((failed + 1)); echo "FAIL spark-$v: not fetched (log: $log)"; continue; }
  fi
  TERAHEAP_SPARK_VERSION=$v SPARK_TEST_WORKLOADS=$workloads SPARK_TEST_CONFIGS="sd th" \
    tests/spark/run.sh >>"$log" 2>&1
  status=$?
  summary=$(tail -1 "$log")
  if [ $status -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS spark-$v: $summary${workloads:+ (workloads: $workloads)}"
  else
    failed=$((failed + 1)); echo "FAIL spark-$v: $summary (log: $log)"; grep "^FAIL" "$log" | head -3
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
