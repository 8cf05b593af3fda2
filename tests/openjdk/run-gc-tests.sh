#!/bin/bash
# Runs OpenJDK's own GC jtreg tests (from the unpacked openjdk-17 source) against build/jdk twice:
# with TeraHeap off and with it on, and prints the tests that fail only with TeraHeap on.
#   tests/openjdk/run-gc-tests.sh [test or group ...]   (default: the Parallel-GC-relevant set below)
set -uo pipefail
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
set +e
JDK=$REPO_ROOT/build/jdk
JTREG_JAR=/usr/share/jtreg/lib/jtreg.jar
ROOT=$PRISTINE/test/hotspot/jtreg
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  tests=(gc/parallel gc/TestSystemGC.java gc/TestSmallHeap.java gc/TestObjectAlignment.java
         gc/TestVerifySilently.java gc/TestVerifySubSet.java gc/TestNUMAPageSize.java
         gc/stress/gcold/TestGCOldWithParallel.java gc/stress/gcbasher/TestGCBasherWithParallel.java
         gc/stress/systemgc gc/logging gc/metaspace gc/class_unloading gc/cslocker gc/arguments/TestParallelGCThreads.java
         gc/TestReferenceClearDuringReferenceProcessing.java gc/TestSoftReferencesBehaviorOnOOME.java)
fi
run() {   # run <name> <vm options>
  local name=$1; shift
  (cd "$ROOT" && "$STOCK_JDK/bin/java" -jar "$JTREG_JAR" -jdk:"$JDK" -vmoptions:"$*" \
     -w:"$REPO_ROOT/build/openjdk-gc/$name/work" -r:"$REPO_ROOT/build/openjdk-gc/$name/report" \
     -conc:2 -timeoutFactor:4 -verbose:summary -ignore:quiet "${tests[@]}" ) >"build/openjdk-gc/$name.log" 2>&1
  grep "^Test results" "build/openjdk-gc/$name.log"
}
mkdir -p build/openjdk-gc
echo "stock (TeraHeap off):"; run off "-XX:+UseParallelGC"
echo "TeraHeap on:";          run on "-XX:+UseParallelGC -XX:+EnableTeraHeap -XX:TeraHeapSize=1g"
grep -E "^(FAILED|Error)" build/openjdk-gc/off.log | sort >build/openjdk-gc/off.failed
grep -E "^(FAILED|Error)" build/openjdk-gc/on.log | sort >build/openjdk-gc/on.failed
only_on=$(comm -13 build/openjdk-gc/off.failed build/openjdk-gc/on.failed)
echo "failing only with TeraHeap on: ${only_on:-none}"
