#!/bin/bash
# Runs every TeraHeap test against build/jdk with jtreg (Debian's jtreg7) and ends with the line
# "N passed, N failed". Extra arguments go to jtreg, e.g. tests/run.sh tests/jtreg/teraheap/TestTeraHeapApi.java
# TERAHEAP_TEST_JDK=build/jdk-fastdebug runs them against the fastdebug build (asserts on).
set -uo pipefail
cd "$(dirname "$0")/.."
source jvm/scripts/common.sh
set +e

JDK=$(cd "$REPO_ROOT" && realpath -m "${TERAHEAP_TEST_JDK:-build/jdk}")
[ -x "$JDK/bin/java" ] || die "no TeraHeap JDK at $JDK: run make (or make fastdebug) first"
JTREG_JAR=/usr/share/jtreg/lib/jtreg.jar
[ -f "$JTREG_JAR" ] || die "jtreg is missing: run make (it installs Debian's jtreg7)"
# OpenJDK's test library (/test/lib) from the source tree the build unpacked.
ln -sfn "$PRISTINE" build/openjdk

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/jtreg)
rm -rf build/jtreg
"$STOCK_JDK/bin/java" -jar "$JTREG_JAR" \
  -jdk:"$JDK" \
  -cpa:"$REPO_ROOT/build/teraheap-api.jar" \
  -e:TERAHEAP_STOCK_JDK="$STOCK_JDK" \
  -w:build/jtreg/work -r:build/jtreg/report \
  -conc:2 -timeoutFactor:2 -verbose:summary -noreport \
  "${tests[@]}" 2>&1 | tee build/jtreg.log
status=${PIPESTATUS[0]}

# jtreg's summary: "Test results: passed: 3; failed: 1; error: 1"
summary=$(grep "^Test results:" build/jtreg.log | tail -1)
passed=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
failed=$(echo "$summary" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
errors=$(echo "$summary" | sed -n 's/.*error: \([0-9]*\).*/\1/p')
passed=${passed:-0}; failed=$(( ${failed:-0} + ${errors:-0} ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi   # jtreg itself failed
[ "$failed" -eq 0 ] || echo "Failed test logs: build/jtreg/work/ (*.jtr)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
