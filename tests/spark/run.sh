#!/bin/bash
# usage: tests/spark/run.sh
# The Spark tests: what teraheap-spark.jar does to unmodified Spark (SparkCacheCheck, in local
# mode and on a standalone cluster), and every workload of the benchmark suite at scale 1 in every
# configuration, whose results must agree. One line per check, "PASS name" or "FAIL name", then
# "N passed, N failed".
#   TERAHEAP_SPARK_VERSION=4.2.0   runs another release than make's, built first by
#                                  benchmarks/spark/build-release.sh 4.2.0 [checks]
#   SPARK_TEST_CHECKS="h2-memory-only budget-full"   runs only these checks ("" none)
#   SPARK_TEST_WORKLOADS="pr logr" SPARK_TEST_CONFIGS="sd th"   narrows the workload runs ("" none)
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
set +e   # a failing check is counted and reported, not the end of the run
REPO=$PWD
JDK=$REPO/build/jdk
AGENT=$REPO/build/teraheap-spark.jar
SPARK=$(spark_build_dir)
WORKLOADS=${SPARK_TEST_WORKLOADS-pr cc sssp svdpp tc linr logr svm nb rl sql pregel phases}
for f in "$JDK/bin/java" "$AGENT" "$SPARK/spark-classpath.txt" $([ -z "$WORKLOADS" ] || echo "$SPARK/teraheap-bench-spark.jar"); do
  [ -e "$f" ] || die "$f is missing: run make first${TERAHEAP_SPARK_VERSION:+ and benchmarks/spark/build-release.sh $TERAHEAP_SPARK_VERSION}"
done
OUT=build/spark-tests${TERAHEAP_SPARK_VERSION:+-$TERAHEAP_SPARK_VERSION}
rm -rf "$OUT" && mkdir -p "$OUT/classes" "$OUT/logs"
SPARK_CP=$(cat "$SPARK/spark-classpath.txt")
"$STOCK_JDK/bin/javac" -d "$OUT/classes" -cp "$SPARK_CP:$AGENT" $(find tests/spark/src -name '*.java') \
  || die "the Spark tests do not compile"
"$STOCK_JDK/bin/jar" --create --file "$OUT/checks.jar" -C "$OUT/classes" .
OPTS=$(grep -v '^#' benchmarks/spark/java-options | tr '\n' ' ')
VERIFY="-XX:+UnlockDiagnosticVMOptions -XX:+VerifyBeforeGC -XX:+VerifyAfterGC"
H2_DIR=$(mktemp -d "${TMPDIR:-/tmp}/teraheap-spark-test.XXXXXX")
# Only a cluster this run started is stopped: another run in this tree may be using its own.
cluster_started=
trap '[ -z "$cluster_started" ] || spark/cluster.sh stop >/dev/null 2>&1; rm -rf "$H2_DIR"' EXIT
passed=0 failed=0

result() {  # name status log
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS $1"
  else
    failed=$((failed + 1)); echo "FAIL $1 (log: $3)"; grep "^FAIL" "$3" | head -3
  fi
}

# Whether the check NAME is among those to run (SPARK_TEST_CHECKS; all by default).
wanted() { [ -z "${SPARK_TEST_CHECKS+set}" ] || [[ " $(echo $SPARK_TEST_CHECKS) " == *" $1 "* ]]; }

check() {  # name java [jvm options...] -- scenario args...
  local name=$1 java=$2; shift 2
  wanted "$name" || return 0
  local jvm=() log="$OUT/logs/$name.log"
  while [ "$1" != "--" ]; do jvm+=("$1"); shift; done; shift
  # shellcheck disable=SC2086
  "$java" $OPTS -Xmx512m "${jvm[@]}" -cp "$OUT/checks.jar:$SPARK_CP:$AGENT" \
    org.teraheap.sparktest.SparkCacheCheck "$@" >"$log" 2>&1
  local status=$?
  ls hs_err_pid*.log >/dev/null 2>&1 && { status=1; mv hs_err_pid*.log "$OUT/logs/"; }
  if [ "$status" -eq 0 ] && [ -n "${SAYS:-}" ] && ! grep -q -- "$SAYS" "$log"; then
    echo "FAIL the agent did not say '$SAYS'" >>"$log"; status=1
  fi
  result "$name" "$status" "$log"
}

TH=(-XX:+EnableTeraHeap -XX:TeraHeapSize=2g -XX:TeraHeapPath="$H2_DIR" -javaagent:"$AGENT")
# A bad agent option: one line and exit status 1, not the JVM's abort with a stack trace.
if wanted bad-agent-option; then
  refuses_in_one_line "$OUT/logs/bad-agent-option.log" "bad agent option 'budget=2'" \
    "$JDK/bin/java" "${TH[@]:0:3}" -javaagent:"$AGENT"=budget=2 -version
  result bad-agent-option $? "$OUT/logs/bad-agent-option.log"
fi
# Cached blocks go to H2, Spark counts them there, and unpersist frees their regions.
SAYS="cached deserialized blocks go to H2"
check h2-memory-and-disk "$JDK/bin/java" "${TH[@]}" -- h2 MEMORY_AND_DISK
check h2-memory-only "$JDK/bin/java" "${TH[@]}" -- h2 MEMORY_ONLY
check h2-memory-and-disk-2 "$JDK/bin/java" "${TH[@]}" -- h2 MEMORY_AND_DISK_2
check h2-verify "$JDK/bin/java" "${TH[@]}" $VERIFY -Delements=300000 -- h2 MEMORY_AND_DISK
# A second Spark in another class loader is refused, and the one on the class path still served.
check h2-second-loader "$JDK/bin/java" "${TH[@]}" -- loader MEMORY_AND_DISK
# A block read back from disk into memory goes to H2 (an H2 budget of 150 MB, one RDD's worth).
check h2-reenter-from-disk "$JDK/bin/java" "${TH[@]:0:3}" -javaagent:"$AGENT"=budgetBytes=157286400 \
  -Delements=300000 -- reenter MEMORY_AND_DISK
# H2 in Spark's metrics system, through the plugin.
check h2-metrics "$JDK/bin/java" "${TH[@]}" -Dspark.plugins=org.teraheap.spark.TeraHeapMetricsPlugin \
  -- h2 MEMORY_AND_DISK
# A cached DataFrame's columnar batches go to H2 as well.
check h2-dataframe "$JDK/bin/java" "${TH[@]}" -- dataframe MEMORY_AND_DISK
# The same RDD overflows H1's storage pool without TeraHeap: the checks above are not vacuous.
# The agent says that TeraHeap is off, and leaves Spark alone.
SAYS="TeraHeap is off in this JVM"
check spill-teraheap-off "$JDK/bin/java" -javaagent:"$AGENT" -- spill MEMORY_AND_DISK
# On Debian's JVM with TeraHeap's flags, as Spark's launcher passes them (it adds
# -XX:+IgnoreUnrecognizedVMOptions, so the JVM starts without a word).
check spill-stock-jvm "$STOCK_JDK/bin/java" -XX:+IgnoreUnrecognizedVMOptions "${TH[@]}" -- spill MEMORY_AND_DISK
# A Spark release the agent does not know (3.4, before the lines it knows): one line, Spark alone.
if wanted unknown-release; then
  if [ -f build/spark-3.4.4/spark-classpath.txt ]; then
    SAYS="Spark 3.4.4 is not a release this jar knows" SPARK_CP=$(cat build/spark-3.4.4/spark-classpath.txt) \
      check unknown-release "$JDK/bin/java" "${TH[@]}" -- untouched MEMORY_AND_DISK
  else
    result unknown-release 1 "build/spark-3.4.4/spark-classpath.txt is missing: run make"
  fi
fi
SAYS="cached deserialized blocks go to H2"
# An H2 budget smaller than the RDD: the rest takes Spark's usual path.
check budget-full "$JDK/bin/java" "${TH[@]:0:3}" -javaagent:"$AGENT"=budgetBytes=80000000 \
  -- budget MEMORY_AND_DISK
# H2 filled by the program's own group before the RDD's blocks can move: they are handed back to
# H1's storage pool, then counted in H2 again once they move. One GC thread: the group, tagged
# first, then moves first (on several, the blocks' moves race it for H2's room, and which one
# finds H2 full varies from run to run).
check h2-handback "$JDK/bin/java" "${TH[@]}" -XX:TeraHeapSize=192m -Xmx1g -Delements=300000 \
  -XX:ParallelGCThreads=1 -- handback MEMORY_AND_DISK
# Adopting at eviction: blocks go to H2 only when H1's storage pool is full, those it holds stay.
SAYS="go to H2 when H1's storage pool is full"
check adopt-evicted "$JDK/bin/java" "${TH[@]:0:3}" -javaagent:"$AGENT"=adopt=evicted -- evicted MEMORY_AND_DISK
check adopt-evicted-memory-only "$JDK/bin/java" "${TH[@]:0:3}" -javaagent:"$AGENT"=adopt=evicted -- evicted MEMORY_ONLY
check adopt-evicted-kept "$JDK/bin/java" "${TH[@]:0:3}" -javaagent:"$AGENT"=adopt=evicted -Delements=100000 \
  -- kept MEMORY_AND_DISK
SAYS="cached deserialized blocks go to H2"
# A heap that holds the whole job: no full GC, so nothing moves, and the agent says why at exit.
SAYS="no full GC ran to move them" check h2-never-moved "$JDK/bin/java" "${TH[@]}" -Xms2g -Xmx2g \
  -XX:MetaspaceSize=512m -Delements=100000 -- nomove MEMORY_AND_DISK
SAYS=

# Spark's own launcher, from the Spark home make assembled (spark/home.sh): its defaults put the
# driver on build/jdk with TeraHeap and the agent; the user adds only H2's size and place. A
# flight recording of the job holds TeraHeap's moves.
if wanted spark-submit; then
  SAYS="cached deserialized blocks go to H2"
  log=$OUT/logs/spark-submit.log jfr=$OUT/logs/spark-submit.jfr
  "$SPARK/spark-home/bin/spark-submit" --driver-memory 512m \
    --driver-java-options "-XX:TeraHeapSize=2g -XX:TeraHeapPath=$H2_DIR -XX:StartFlightRecording=filename=$jfr" \
    --class org.teraheap.sparktest.SparkCacheCheck "$OUT/checks.jar" h2 MEMORY_AND_DISK >"$log" 2>&1
  status=$?
  grep -q -- "$SAYS" "$log" || { echo "FAIL the agent did not say '$SAYS'" >>"$log"; status=1; }
  moves=$("$JDK/bin/jfr" summary "$jfr" 2>>"$log" | awk '$1 == "jdk.TeraHeapMove" { print $2 }')
  echo "jdk.TeraHeapMove events in $jfr: ${moves:-none}" >>"$log"
  [ "${moves:-0}" -gt 0 ] || { echo "FAIL the recording holds no jdk.TeraHeapMove event" >>"$log"; status=1; }
  result spark-submit $status "$log"
  SAYS=
fi

# A standalone cluster: master, worker, two executors, each with its own H2 file.
cluster_check() {  # name scenario args...
  local name=$1; shift
  check "$name" "$JDK/bin/java" -Dspark.executor.cores=1 -Dspark.executor.memory=512m \
    -Dspark.cores.max=2 -Dspark.jars="$REPO/$OUT/checks.jar" \
    "-Dspark.executor.extraJavaOptions=-XX:+EnableTeraHeap -XX:TeraHeapSize=2g -XX:TeraHeapPath=$H2_DIR -javaagent:$AGENT" \
    -- cluster "$@"
}
if ! wanted standalone-cluster && ! wanted standalone-cluster-replicated; then
  :
elif cluster_started=1 && master=$(spark/cluster.sh start 2 4g 2>"$OUT/logs/cluster-start.log"); then
  cluster_check standalone-cluster "$master"
  # MEMORY_AND_DISK_2: every block on both executors, each copy in its executor's H2.
  cluster_check standalone-cluster-replicated "$master" MEMORY_AND_DISK_2
  spark/cluster.sh stop
  cluster_started=
else
  wanted standalone-cluster && result standalone-cluster 1 "$OUT/logs/cluster-start.log"
  wanted standalone-cluster-replicated && result standalone-cluster-replicated 1 "$OUT/logs/cluster-start.log"
fi

# Every workload at scale 1 in every configuration; then the results must agree. TeraHeap's runs
# (on Parallel, and on G1, experimental: docs/g1.md) collect fully after every Spark job, so that
# blocks move and free all through the run, and H2's use is compared with the cache after each.
# Under TeraHeap the agent must report no error (it catches its own, and the run goes on).
csv=$OUT/workloads.csv
no_agent_error() {  # the last run's log has no error the agent caught
  local run_log
  run_log=$(python3 -c 'import csv, sys; print(list(csv.DictReader(open(sys.argv[1])))[-1]["log"])' "$csv") &&
    ! grep -H "\[teraheap-spark\] unexpected error" "$run_log"
}
CONFIGS=${SPARK_TEST_CONFIGS-sd g1 ser mo th thg1}
for w in $WORKLOADS; do
  for c in $CONFIGS; do
    log=$OUT/logs/$w-$c.log
    benchmarks/spark/bench.py run "$w" "$c" --scale 1 --heap 1g --h2 2g --mo-heap 2g --csv "$csv" \
      $([[ $c == th* ]] && echo --gc-each-job) >"$log" 2>&1 && no_agent_error >>"$log"
    result "workload-$w-$c" $? "$log"
  done
done
if [[ " $CONFIGS " == *" thg1 "* ]] && [[ " $WORKLOADS " == *" pr "* ]]; then
  log=$OUT/logs/pr-thg1.log
  # Under G1, PageRank's blocks reach H2 (before the agent found G1's full collector, it
  # reported an error and moved nothing).
  python3 - "$csv" >"$log" 2>&1 <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["config"] == "thg1" and r["workload"] == "pr"]
ok = bool(rows) and rows[-1]["status"] == "ok" and float(rows[-1]["h2_moved_mb"]) > 0
print("under G1: blocks moved to H2" if ok else "under G1: no block moved to H2")
sys.exit(0 if ok else 1)
PY
  result "workload-pr-thg1-moved" $? "$log"
  # Stage 2 (docs/g1.md): with no full GC asked for, blocks reach H2 in young pauses, and the GC
  # log has no full GC at all.
  log=$OUT/logs/pr-thg1-pauses.log
  benchmarks/spark/bench.py run pr thg1 --scale 1 --heap 1g --h2 2g --csv "$OUT/thg1-pauses.csv" >"$log" 2>&1 &&
    python3 - "$OUT/thg1-pauses.csv" >>"$log" 2>&1 <<'PY'
import csv, re, sys
row = list(csv.DictReader(open(sys.argv[1])))[-1]
gc_log = open(row["log"].rsplit(".", 1)[0] + ".gc.log").read()
# SparkBench's H2 report, after the workload, runs full GCs of its own.
report = re.search(r"h2_report_uptime_ms=(\d+)", open(row["log"]).read())
end_s = int(report.group(1)) / 1000 if report else float("inf")
def uptime(line):
    m = re.match(r"\[([0-9.]+)s\]", line)
    return float(m.group(1)) if m else 0.0
lines = [l for l in gc_log.splitlines() if uptime(l) < end_s]
pauses = sum("to H2 in the pause" in l for l in lines)
full = sum("Pause Full" in l for l in lines)
ok = row["status"] == "ok" and float(row["h2_moved_mb"]) > 0 and pauses > 0 and full == 0 \
    and "[teraheap-spark] unexpected error" not in open(row["log"]).read()
print(f"under G1 without full GCs: {row['h2_moved_mb']} MB moved in {pauses} pauses, {full} full GCs in the workload")
sys.exit(0 if ok else 1)
PY
  result "workload-pr-thg1-pauses" $? "$log"
fi
if [ -n "$WORKLOADS" ]; then
  benchmarks/spark/bench.py check "$csv" >"$OUT/logs/agreement.log" 2>&1
  result "workload-results-agree" $? "$OUT/logs/agreement.log"
  # H2 held no more than twice the cache and a region per cached RDD, and under 1 MB once dropped.
  benchmarks/spark/bench.py space "$csv" >"$OUT/logs/h2-space.log" 2>&1
  result "workload-h2-space" $? "$OUT/logs/h2-space.log"
  cat "$OUT/logs/h2-space.log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
