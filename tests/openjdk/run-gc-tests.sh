#!/bin/bash
# usage: tests/openjdk/run-gc-tests.sh [--quick | --stress [TEST ...] | TEST ...]
# Runs OpenJDK's own GC jtreg tests (from the unpacked openjdk-17 source) against build/jdk three
# times: with TeraHeap off, with it on, and with it on in its stress mode (-XX:+TeraHeapStressMove:
# every full GC moves old objects nobody tagged, so the tests run with H2 in use, and every other
# evacuation of what it moved runs out of H2 halfway, -XX:+TeraHeapStressEvacuationFailure). Prints the tests
# that fail only with TeraHeap on, and only in the stress mode.
#   tests/openjdk/run-gc-tests.sh [test or group ...]   (default: the Parallel-GC-relevant set below)
#   TERAHEAP_TEST_JDK=build/jdk-fastdebug tests/openjdk/run-gc-tests.sh ...
#   tests/openjdk/run-gc-tests.sh --stress [test ...]  only the stress mode (default set), with
#                                           the tests it fails listed; ends with "N passed, N failed"
#   tests/openjdk/run-gc-tests.sh --quick   the same on the quick subset below: what make test runs
# COLLECTOR=g1 runs them under G1 instead (TeraHeap on G1 is experimental, docs/g1.md), with G1's
# own tests in the default and quick sets, and H2 regions of 32 MB (never smaller than G1's).
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
# --quick or --stress first, then tests (or groups): any other option is a mistake.
case "${1:-}" in
  --quick) script_args -1 '' "${@:2}"; [ $# -eq 1 ] || script_error "--quick runs its own set: give tests without it" ;;
  --stress) script_args -1 '' "${@:2}" ;;
  *) script_args -1 '' "$@" ;;
esac
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
set +e
JDK=$(cd "$REPO_ROOT" && realpath -m "${TERAHEAP_TEST_JDK:-build/jdk}")
JTREG_JAR=/usr/share/jtreg/lib/jtreg.jar
ROOT=$PRISTINE/test/hotspot/jtreg
OUT=$REPO_ROOT/build/openjdk-gc
# Quick: tests that pass on the stock JVM, take seconds each, and collect often with old objects.
COLLECTOR=${COLLECTOR:-parallel}
case $COLLECTOR in
  parallel)
    QUICK=(gc/TestSystemGC.java gc/TestObjectAlignment.java gc/TestVerifySubSet.java gc/TestSmallHeap.java
           gc/parallel gc/stress/systemgc/TestSystemGCWithParallel.java gc/stress/gcold/TestGCOldWithParallel.java
           gc/TestReferenceRefersTo.java gc/class_unloading/TestClassUnloadingDisabled.java)
    DEFAULT=(gc/parallel gc/TestSystemGC.java gc/TestSmallHeap.java gc/TestObjectAlignment.java
             gc/TestVerifySilently.java gc/TestVerifySubSet.java gc/TestNUMAPageSize.java
             gc/stress/gcold/TestGCOldWithParallel.java gc/stress/gcbasher/TestGCBasherWithParallel.java
             gc/stress/systemgc gc/logging gc/metaspace gc/class_unloading gc/cslocker gc/arguments/TestParallelGCThreads.java
             gc/TestReferenceRefersTo.java gc/TestSoftReferencesBehaviorOnOOME.java)
    STOCK_GC="-XX:+UseParallelGC"; TH_GC="-XX:+UseParallelGC"; region=1m ;;
  g1)
    QUICK=(gc/TestSystemGC.java gc/TestObjectAlignment.java gc/TestVerifySubSet.java
           gc/stress/systemgc/TestSystemGCWithG1.java gc/stress/gcold/TestGCOldWithG1.java
           gc/TestReferenceRefersTo.java gc/g1/TestConcurrentSystemGC.java
           gc/g1/TestEagerReclaimHumongousRegionsWithRefs.java gc/g1/TestGreyReclaimedHumongousObjects.java
           gc/g1/humongousObjects/TestNoAllocationsInHRegions.java)
    DEFAULT=(gc/g1 gc/TestSystemGC.java gc/TestSmallHeap.java gc/TestObjectAlignment.java
             gc/TestVerifySilently.java gc/TestVerifySubSet.java
             gc/stress/gcold/TestGCOldWithG1.java gc/stress/gcbasher/TestGCBasherWithG1.java
             gc/stress/systemgc gc/logging gc/metaspace gc/class_unloading
             gc/TestReferenceRefersTo.java gc/TestSoftReferencesBehaviorOnOOME.java)
    STOCK_GC="-XX:+UseG1GC"; TH_GC="-XX:+UnlockExperimentalVMOptions -XX:+UseG1GC -XX:+TeraHeapG1InProgress"
    region=32m ;;
  *) script_error "COLLECTOR=$COLLECTOR: give parallel or g1" ;;
esac
stress_only=false; name=stress; h2_size=1g
# The quick set's H2 is smaller: TestPrintGCDetailsVerbose fills H2 in each of its 11 rounds, at
# most 8 stress moves per full GC, so its run time grows with H2's size; 256 MB fills, frees and
# refills just as well, in seconds.
if [ "${1:-}" = "--quick" ]; then stress_only=true; name=quick; h2_size=256m; shift; set -- "${QUICK[@]}"; fi
if [ "${1:-}" = "--stress" ]; then stress_only=true; shift; fi
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("${DEFAULT[@]}")
run() {   # run <name> <timeout factor> <vm options>
  local name=$1 timeout=$2; shift 2
  name=$COLLECTOR-$name
  rm -rf "$OUT/$name"
  (cd "$ROOT" && "$STOCK_JDK/bin/java" -jar "$JTREG_JAR" -jdk:"$JDK" -vmoptions:"$*" \
     -w:"$OUT/$name/work" -r:"$OUT/$name/report" \
     -conc:2 -timeoutFactor:$timeout -retain:fail -verbose:summary -ignore:quiet "${tests[@]}" ) >"$OUT/$name.log" 2>&1
  grep "^Test results" "$OUT/$name.log" || echo "Test results: none (see $OUT/$name.log)"
  grep -E "^(FAILED|Error)" "$OUT/$name.log" | sort >"$OUT/$name.failed"
}
# Why each failing test failed, in this output: CI keeps what is printed, not the work directory.
explain() {   # explain <jtreg work dir>
  local jtr
  for jtr in $(grep -l -E '^test result: (Failed|Error)' $(find "$1" -name '*.jtr') 2>/dev/null); do
    echo "---- $jtr ----"
    grep -n -E 'Exception in thread|Error: |fatal error|hs_err|exit code|[Tt]imed out|^result: ' "$jtr" | grep -v 'result: Passed' | head -20 | cut -c1-400
    grep -E '^test result: ' "$jtr"
  done
  print_crash_reports "$1"
}
mkdir -p "$OUT"
# Every other of the evacuations the stress mode causes runs out of H2 halfway through its copy.
STRESS="$TH_GC -XX:+EnableTeraHeap -XX:TeraHeapSize=$h2_size -XX:TeraHeapRegionSize=$region -XX:+UnlockDiagnosticVMOptions -XX:+TeraHeapStressMove -XX:+TeraHeapStressEvacuationFailure"
if $stress_only; then
  echo "TeraHeap stress mode ($name):"; summary=$(run $name 8 "$STRESS"); echo "$summary"
  passed=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
  failed=$(echo "$summary" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
  errors=$(echo "$summary" | sed -n 's/.*error: \([0-9]*\).*/\1/p')
  failed=$(( ${failed:-0} + ${errors:-0} )); passed=${passed:-0}
  [ "$failed" -eq 0 ] || { echo "failed:"; cat "$OUT/$COLLECTOR-$name.failed"; explain "$OUT/$COLLECTOR-$name/work"; echo "logs: $OUT/$COLLECTOR-$name/work"; }
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
  exit
fi
echo "stock (TeraHeap off):"; run off 4 "$STOCK_GC"
echo "TeraHeap on:";          run on 4 "$TH_GC -XX:+EnableTeraHeap -XX:TeraHeapSize=1g -XX:TeraHeapRegionSize=$region"
# The stress mode multiplies the tests' full GCs (moves at each): twice the time allowed.
echo "TeraHeap stress mode:"; run stress 8 "$STRESS"
only_on=$(comm -13 "$OUT/$COLLECTOR-off.failed" "$OUT/$COLLECTOR-on.failed")
only_stress=$(comm -13 "$OUT/$COLLECTOR-off.failed" "$OUT/$COLLECTOR-stress.failed")
echo "failing only with TeraHeap on: ${only_on:-none}"
echo "failing only in the stress mode: ${only_stress:-none}"
[ -z "$only_on" ] && [ -z "$only_stress" ]
