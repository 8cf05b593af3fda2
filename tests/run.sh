#!/bin/bash
# usage: tests/run.sh [JTREG_TEST ...]
# Runs every TeraHeap test and ends with the line "N passed, N failed":
#  - the JVM tests, against build/jdk with jtreg (Debian's jtreg7);
#  - unit tests of JVM code that runs without a JVM (tests/unit/run.sh: the H1 size policy);
#  - a quick subset of OpenJDK's own GC tests in TeraHeap's stress mode (tests/openjdk/run-gc-tests.sh),
#    under Parallel and under G1;
#  - the Spark tests (tests/spark/run.sh): the agent on unmodified Spark 3.5, and every workload of
#    the benchmark suite at scale 1 in Spark-SD and TeraHeap (on Parallel and on G1); then a subset
#    on Spark 4 (SPARK4_CHECKS);
#  - the hybrid DRAM/NVM RDD cache's tests (tests/hybrid/run.sh): its agent on unmodified Spark 3.5;
#  - the Giraph tests (tests/giraph/run.sh): every Giraph workload on a small graph, with the agent,
#    under Parallel and under G1, against a reference computed without Giraph.
#  - the remote-H2 tests (tests/remote/run.sh): H2 on an NBD device, data and faults (as root with
#    cgroup v1's memory controller; else counted as skipped).
# Extra arguments go to jtreg and run those JVM tests only, e.g.
#   tests/run.sh tests/jtreg/teraheap/TestTeraHeapApi.java
# TERAHEAP_TEST_JDK=build/jdk-fastdebug runs the JVM tests against the fastdebug build (asserts on).
# TERAHEAP_TEST_COLLECTOR=g1 runs the GC scenarios (TeraHeapProcess.runInEveryMode) under G1
# (with the fastdebug build while the G1 port is built: docs/g1.md).
set -uo pipefail
source "$(dirname "$0")/../benchmarks/common.sh"
script_args -1 '' "$@"
cd "$(dirname "$0")/.."
source jvm/scripts/common.sh
set +e

JDK=$(cd "$REPO_ROOT" && realpath -m "${TERAHEAP_TEST_JDK:-build/jdk}")
[ -x "$JDK/bin/java" ] || die "no TeraHeap JDK at $JDK: run make (or make fastdebug) first"
JTREG_JAR=/usr/share/jtreg/lib/jtreg.jar
[ -f "$JTREG_JAR" ] || die "jtreg is missing: run make (it installs Debian's jtreg7)"
# OpenJDK's test library (/test/lib) from the source tree the build unpacked.
ln -sfn "$PRISTINE" build/openjdk

SPARK4=$(sed -n 's/^SPARK4_VERSION := //p' Makefile)
SPARK4_CHECKS="h2-memory-and-disk h2-memory-only h2-dataframe h2-metrics spill-teraheap-off h2-handback
               h2-reenter-from-disk budget-full adopt-evicted spark-submit standalone-cluster-replicated"

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/jtreg)
rm -rf build/jtreg
# jtreg keeps 100,000 characters of a test's output by default: a failure late in a long log
# (TestTeraHeapDynamicH1's G1 run) would be cut from its .jtr.
"$STOCK_JDK/bin/java" -Djavatest.maxOutputSize=4000000 -jar "$JTREG_JAR" \
  -jdk:"$JDK" \
  -cpa:"$REPO_ROOT/build/teraheap-api.jar" \
  -e:TERAHEAP_STOCK_JDK="$STOCK_JDK" ${TERAHEAP_TEST_COLLECTOR:+-e:TERAHEAP_TEST_COLLECTOR="$TERAHEAP_TEST_COLLECTOR"} \
  -w:build/jtreg/work -r:build/jtreg/report \
  -conc:2 -timeoutFactor:2 -retain:fail -verbose:summary,time -noreport \
  "${tests[@]}" 2>&1 | tee build/jtreg.log
status=${PIPESTATUS[0]}

# jtreg's summary: "Test results: passed: 3; failed: 1; error: 1"
summary=$(grep "^Test results:" build/jtreg.log | tail -1)
passed=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
failed=$(echo "$summary" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
errors=$(echo "$summary" | sed -n 's/.*error: \([0-9]*\).*/\1/p')
passed=${passed:-0}; failed=$(( ${failed:-0} + ${errors:-0} ))
# A test that throws jtreg.SkippedException passes for jtreg: count it as skipped.
skipped=$(grep -l -E '^test result: Passed\. Skipped' $(find build/jtreg/work -name '*.jtr' 2>/dev/null) /dev/null 2>/dev/null | wc -l)
passed=$(( passed - skipped ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi   # jtreg itself failed
if [ "$failed" -ne 0 ]; then
  # The reason, in this output too: CI keeps the printed output, not the work directory.
  for jtr in $(grep -l -E '^test result: (Failed|Error)' $(find build/jtreg/work -name '*.jtr') 2>/dev/null); do
    echo "---- $jtr: the failing child's command, its last lines and the exception ----"
    grep -E '^Command: ' "$jtr" | tail -1 | cut -c1-600
    grep -n -E 'failed: |Exception|fatal error|hs_err|Exit: [1-9]' "$jtr" | head -20
    grep -E '^test result: ' "$jtr"
  done
  print_crash_reports build/jtreg/work
  echo "Failed test logs: build/jtreg/work/ (*.jtr)"
fi
echo "JVM tests: $passed passed, $failed failed${skipped:+, $skipped skipped}" | sed 's/, 0 skipped$//'

# Runs a suite that ends with "N passed, N failed" and adds its counts; a suite that did not run
# through to that line counts as one failure.
run_suite() {  # name log command...
  local name=$1 log=$2; shift 2
  "$@" 2>&1 | tee "$log"
  local last suite_passed suite_failed suite_skipped
  last=$(tail -1 "$log")
  suite_passed=$(echo "$last" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
  suite_failed=$(echo "$last" | sed -n 's/.* \([0-9]*\) failed\(, [0-9]* skipped\)\{0,1\}$/\1/p')
  suite_skipped=$(echo "$last" | sed -n 's/.* \([0-9]*\) skipped$/\1/p')
  [ -n "$suite_passed" ] || suite_failed=1
  echo "$name: ${suite_passed:-0} passed, ${suite_failed:-0} failed${suite_skipped:+, $suite_skipped skipped}"
  passed=$(( passed + ${suite_passed:-0} )); failed=$(( failed + ${suite_failed:-0} ))
  skipped=$(( skipped + ${suite_skipped:-0} ))
}

if [ $# -eq 0 ]; then
  run_suite "Unit tests" build/unit-tests.log tests/unit/run.sh
  # OpenJDK's own GC tests, a quick subset, in TeraHeap's stress mode (H2 in use without tags).
  run_suite "OpenJDK GC tests (stress mode)" build/openjdk-gc-tests.log \
    env TERAHEAP_TEST_JDK="$JDK" tests/openjdk/run-gc-tests.sh --quick
  # The same under G1, with G1's own tests among them (TeraHeap on G1 is experimental).
  run_suite "OpenJDK GC tests under G1 (stress mode)" build/openjdk-gc-tests-g1.log \
    env TERAHEAP_TEST_JDK="$JDK" COLLECTOR=g1 tests/openjdk/run-gc-tests.sh --quick
  # Every workload in Spark-SD, TeraHeap and TeraHeap on G1; the baselines' other configurations
  # (Spark-SD on G1, serialized, Spark-MO) add 10 minutes: tests/spark/run.sh runs them.
  run_suite "Spark tests" build/spark-tests.log \
    env SPARK_TEST_CONFIGS="sd th thg1" tests/spark/run.sh
  # Spark 4: every piece of advice (storing, counting, evicting, releasing and registering
  # blocks), handing back, replication on a cluster, DataFrames, metrics, Spark's launcher, and
  # three workloads in Spark-SD and TeraHeap: the whole set would add 20 minutes to make test.
  run_suite "Spark $SPARK4 tests (a subset)" build/spark-tests-$SPARK4.log \
    env TERAHEAP_SPARK_VERSION="$SPARK4" SPARK_TEST_CHECKS="$SPARK4_CHECKS" \
        SPARK_TEST_WORKLOADS="pr sssp sql" SPARK_TEST_CONFIGS="sd th" tests/spark/run.sh
  run_suite "Hybrid cache tests" build/hybrid-tests.log tests/hybrid/run.sh
  run_suite "Giraph tests" build/giraph-tests.log tests/giraph/run.sh
  run_suite "Remote H2 tests" build/remote-tests.log tests/remote/run.sh
fi
echo "$passed passed, $failed failed${skipped:+, $skipped skipped}" | sed 's/, 0 skipped$//'
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
