#!/bin/bash
# The JVM tests' GC scenarios under G1: every test of tests/jtreg/teraheap that runs its scenario
# through TeraHeapProcess.runInEveryMode, with G1 and its variants in place of Parallel's
# (TERAHEAP_TEST_COLLECTOR=g1), and the G1 port's own tests. While the port is built (an
# experimental flag), this runs against build/jdk-fastdebug (make fastdebug), whose asserts check
# it, unless TERAHEAP_TEST_JDK names another. About two hours on 2 cores. Ends with
# "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
tests=$(grep -l "runInEveryMode(" tests/jtreg/teraheap/*.java | sort)
export TERAHEAP_TEST_COLLECTOR=g1
export TERAHEAP_TEST_JDK=${TERAHEAP_TEST_JDK:-build/jdk-fastdebug}
exec tests/run.sh $tests tests/jtreg/teraheap/TestTeraHeapG1.java tests/jtreg/teraheap/TestTeraHeapG1Marking.java \
  tests/jtreg/teraheap/TestTeraHeapG1Reclaim.java tests/jtreg/teraheap/TestTeraHeapG1PauseMove.java \
  tests/jtreg/teraheap/TestTeraHeapG1OldRoots.java tests/jtreg/teraheap/TestTeraHeapG1LeftBehind.java \
  tests/jtreg/teraheap/TestTeraHeapG1RemarkReach.java tests/jtreg/teraheap/TestTeraHeapG1Optional.java \
  tests/jtreg/teraheap/TestTeraHeapDynamicH1.java tests/jtreg/teraheap/TestTeraHeapSoak.java
