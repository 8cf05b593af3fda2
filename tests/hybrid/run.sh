#!/bin/bash
# usage: tests/hybrid/run.sh
# The hybrid DRAM/NVM RDD cache's tests (build/hybrid-spark.jar, docs/hybrid.md) on unmodified
# Spark 3.5 in local mode (one check on a standalone cluster), with the emulated NVM tier: each mode at each storage level gives the
# right results, with blocks in both tiers and both tiers empty after unpersist; the share of
# asynchronous migrations is the paper's (flat) or not (layered); bad options, TeraHeap beside it
# and an unknown Spark give one line. The file tier (a mapped file) gives the same results, moves
# blocks into the file and reads them back (also when Spark evicts for execution memory, and for
# a DataFrame), empties it on unpersist, and copes with it full. One line per check, "PASS name" or "FAIL name", then
# "N passed, N failed".
#   HYBRID_TEST_CHECKS="flat-memory-only bad-option-dram=2"   runs only these checks
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
set +e
JDK=$PWD/build/jdk
AGENT=$PWD/build/hybrid-spark.jar
for f in "$JDK/bin/java" "$AGENT" build/spark-classpath.txt build/teraheap-spark.jar; do
  [ -e "$f" ] || die "$f is missing: run make first"
done
OUT=build/hybrid-tests
rm -rf "$OUT" && mkdir -p "$OUT/classes" "$OUT/logs"
SPARK_CP=$(cat build/spark-classpath.txt)
"$STOCK_JDK/bin/javac" -d "$OUT/classes" -cp "$SPARK_CP:$AGENT" $(find tests/hybrid/src -name '*.java') \
  || die "the hybrid cache's tests do not compile"
OPTS=$(grep -v '^#' benchmarks/spark/java-options | tr '\n' ' ')
# A cluster this run started is stopped however the run ends.
cluster_started=
trap '[ -z "$cluster_started" ] || spark/cluster.sh stop >/dev/null 2>&1' EXIT
passed=0 failed=0

wanted() { [ -z "${HYBRID_TEST_CHECKS+set}" ] || [[ " $(echo $HYBRID_TEST_CHECKS) " == *" $1 "* ]]; }

result() {  # name status log
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS $1"
  else
    failed=$((failed + 1)); echo "FAIL $1 (log: $3)"; grep "^FAIL" "$3" | head -3
  fi
}

# check NAME STATUS SAYS [jvm options...] -- HybridCheck arguments: the run must exit with
# STATUS and its output contain SAYS ("" for anything); no hs_err file. CHECK_JDK and
# CHECK_CLASS name another JVM and another check class.
check() {
  local name=$1 want=$2 says=$3; shift 3
  wanted "$name" || return 0
  local jvm=() log="$OUT/logs/$name.log"
  while [ "$1" != "--" ]; do jvm+=("$1"); shift; done; shift
  # shellcheck disable=SC2086
  "${CHECK_JDK:-$JDK}/bin/java" $OPTS -Xmx512m "${jvm[@]}" -cp "$OUT/classes:$SPARK_CP:$AGENT" \
    "${CHECK_CLASS:-org.teraheap.hybridtest.HybridCheck}" "$@" >"$log" 2>&1
  local status=$?
  ls hs_err_pid*.log >/dev/null 2>&1 && { echo "FAIL an hs_err file" >>"$log"; status=99; mv hs_err_pid*.log "$OUT/logs/"; }
  if [ "$status" -ne "$want" ]; then
    echo "FAIL exit status $status, not $want" >>"$log"; status=1
  elif [ -n "$says" ] && ! grep -q -- "$says" "$log"; then
    echo "FAIL the output does not say '$says'" >>"$log"; status=1
  else
    status=0
  fi
  result "$name" "$status" "$log"
}

# 12 partitions of 5 MB: about 60 MB of blocks, in a storage pool of about 190 MB
# (spark.memory.fraction 0.9, the paper's) of which DRAM is an eighth.
FIT=(-DmemoryFraction=0.9 -- MEMORY_ONLY 12 5)
# The flat check counts migrations: 24 partitions of 3 MB (72 MB) make about 20, so that one
# synchronous migration on a loaded machine (1 of 9 with FIT's blocks: 89%) is not a failure.
FLAT_FIT=(-DmemoryFraction=0.9 -- MEMORY_ONLY 24 3)
check flat-memory-only 0 "summary: mode=flat" -javaagent:"$AGENT" "${FLAT_FIT[@]}" both-tiers async
check layered-memory-only 0 "summary: mode=layered" -javaagent:"$AGENT"=mode=layered "${FIT[@]}" both-tiers sync
check layered-amp-memory-only 0 "summary: mode=layered-amp" -javaagent:"$AGENT"=mode=layered-amp "${FIT[@]}" both-tiers
# 24 partitions of 8 MB, about 190 MB, in a pool of about 125 MB: blocks go to disk too.
for level in MEMORY_AND_DISK MEMORY_AND_DISK_SER; do
  lower=$(echo "$level" | tr 'A-Z_' 'a-z-')
  check "flat-$lower" 0 "summary: mode=flat" -javaagent:"$AGENT" -- "$level" 24 8 both-tiers
  check "layered-$lower" 0 "summary: mode=layered" -javaagent:"$AGENT"=mode=layered -- "$level" 24 8 both-tiers
  check "layered-amp-$lower" 0 "summary: mode=layered-amp" -javaagent:"$AGENT"=mode=layered-amp -- "$level" 24 8 both-tiers
  # Two RDDs read in turn: Spark evicts blocks of one for the other's (never for its own RDD's).
  check "flat-oe-$lower" 0 "oe_multiplier=4" -javaagent:"$AGENT"=oe=4 -- "$level" 24 8 both-tiers two-rdds oe
done
# MEMORY_ONLY with more than both tiers hold: blocks that do not fit are recomputed, right.
check flat-memory-only-full 0 "summary: mode=flat" -javaagent:"$AGENT" -- MEMORY_ONLY 24 8 both-tiers

# The file tier's space: random allocations and frees, checked extent by extent.
if wanted file-space; then
  mkdir -p "$OUT/space"
  "$JDK/bin/java" -cp "$OUT/classes:$AGENT" org.teraheap.hybrid.NvmFileCheck "$OUT/space" >"$OUT/logs/file-space.log" 2>&1
  result file-space $? "$OUT/logs/file-space.log"
fi

# The file tier: NVM a mapped file, DRAM all of the pool (about 125 MB); 24 partitions of 8 MB.
# Spark's status store (its UI) shows the file's blocks off the heap, DRAM's on it.
NVM_DIR=$OUT/nvm
mkdir -p "$NVM_DIR"
FILE="nvm=$NVM_DIR,nvmSize=512m"
for level in MEMORY_ONLY MEMORY_AND_DISK MEMORY_AND_DISK_SER; do
  lower=$(echo "$level" | tr 'A-Z_' 'a-z-')
  check "file-flat-$lower" 0 "file_moved_blocks=" -javaagent:"$AGENT=$FILE" -- "$level" 24 8 both-tiers async file ui
  check "file-layered-$lower" 0 "summary: mode=layered" -javaagent:"$AGENT=mode=layered,$FILE" \
    -- "$level" 24 8 both-tiers sync file ui
  check "file-layered-amp-$lower" 0 "summary: mode=layered-amp" -javaagent:"$AGENT=mode=layered-amp,$FILE" \
    -- "$level" 24 8 both-tiers file ui
done
# The same with the metrics plugin: its gauges read the tiers.
check file-metrics 0 "file_moved_blocks=" -javaagent:"$AGENT=$FILE" -Dspark.plugins=org.teraheap.hybrid.HybridMetricsPlugin \
  -- MEMORY_ONLY 24 8 file metrics
# A sort takes execution memory after the blocks are cached: Spark evicts storage for it, and
# the blocks it would evict move into the file instead (in both modes: none dropped nor on disk;
# flat with AMP from 90% of DRAM, so that DRAM holds more than the half execution cannot take).
check file-layered-execution 0 "summary: mode=layered" -javaagent:"$AGENT=mode=layered,$FILE" \
  -- MEMORY_ONLY 24 8 both-tiers file execution
check file-flat-execution 0 "summary: mode=flat" -javaagent:"$AGENT=$FILE,threshold=0.9" -- MEMORY_AND_DISK 24 8 both-tiers file execution
# A DataFrame cached as Spark SQL caches one (columnar batches), read by aggregations; AMP from
# 30% of DRAM, since its 60 MB of blocks fill half of the pool.
CHECK_CLASS=org.teraheap.hybridtest.DataFrameCheck check file-dataframe 0 "file_moved_blocks=" \
  -javaagent:"$AGENT=$FILE,threshold=0.3" -- MEMORY_AND_DISK 3000000
# On Debian's own JDK 17, with its default collector (G1): the agent needs no TeraHeap JVM.
CHECK_JDK=$STOCK_JDK check file-stock-jdk-g1 0 "file_moved_blocks=" -javaagent:"$AGENT=$FILE" \
  -- MEMORY_AND_DISK 24 8 both-tiers async file ui
# A file too small for the blocks: those it cannot take stay in DRAM, are dropped, recomputed.
check file-full 0 "file_full=" -javaagent:"$AGENT=nvm=$NVM_DIR,nvmSize=24m" -- MEMORY_ONLY 24 8 both-tiers file-full
# Blocks of objects Spark's serializer cannot write stay in DRAM (said once), results right.
check file-unserializable 0 "cannot serialize" -javaagent:"$AGENT=$FILE" -- MEMORY_ONLY 24 8 unserializable
# A standalone cluster (spark/cluster.sh): two executors, each with its own file, and the driver
# with the agent without nvm= (it keeps the UI's off-heap figure right after unpersist).
if wanted file-cluster; then
  jar cf "$OUT/checks.jar" -C "$OUT/classes" .
  if cluster_started=1 && master=$(spark/cluster.sh start 2 4g 2>"$OUT/logs/file-cluster-start.log"); then
    # Both executors registered before the first job, so that each caches about half of the
    # blocks; AMP from 30% of DRAM, so that each moves some of its half into its file.
    check file-cluster 0 "" -javaagent:"$AGENT" -Dmaster="$master" -Dspark.executor.cores=1 \
      -Dspark.executor.memory=512m -Dspark.cores.max=2 -Dspark.jars="$PWD/$OUT/checks.jar" \
      -Dspark.scheduler.minRegisteredResourcesRatio=1.0 -Dspark.scheduler.maxRegisteredResourcesWaitingTime=120s \
      "-Dspark.executor.extraJavaOptions=-javaagent:$AGENT=nvm=$PWD/$NVM_DIR,nvmSize=512m,threshold=0.3" \
      -- MEMORY_ONLY 24 8 cluster
    spark/cluster.sh stop
    cluster_started=
  else
    result file-cluster 1 "$OUT/logs/file-cluster-start.log"
  fi
fi
# The file was unlinked as it was made: nothing is left in the directory the checks above used.
if wanted file-unlinked; then
  log="$OUT/logs/file-unlinked.log"
  if [ -z "$(ls "$OUT"/logs/file-{flat,layered,metrics,full,unserializable}*.log 2>/dev/null)" ]; then
    echo "FAIL no file-tier check ran before this one" >"$log"; false
  else
    ls -A "$NVM_DIR" >"$log"; [ ! -s "$log" ]
  fi
  result file-unlinked $? "$log"
fi

# Refusals: one line each, Spark left alone, the job's results unchanged.
for bad in dram=2 fast=yes mode=wide period=0ms oe=65 nvm=/nonexistent nvmSize=lots nvmSize=1g; do
  if wanted "bad-option-$bad"; then
    log="$OUT/logs/bad-option-${bad//\//_}.log"
    refuses_in_one_line "$log" "agent option '$bad'" "$JDK/bin/java" -javaagent:"$AGENT=$bad" -version
    result "bad-option-$bad" $? "$log"
  fi
done
if wanted bad-option-dram-with-file; then
  refuses_in_one_line "$OUT/logs/bad-option-dram-with-file.log" "agent option 'dram=0.5'" \
    "$JDK/bin/java" -javaagent:"$AGENT=nvm=$NVM_DIR,dram=0.5" -version
  result bad-option-dram-with-file $? "$OUT/logs/bad-option-dram-with-file.log"
fi
check file-too-large 1 "does not fit in" -javaagent:"$AGENT=nvm=$NVM_DIR,nvmSize=64t" -- MEMORY_ONLY 4 1 untiered
check beside-teraheap 0 "the hybrid cache and TeraHeap would take the same blocks" \
  -XX:+EnableTeraHeap -XX:TeraHeapSize=2g -XX:TeraHeapPath="${TMPDIR:-/tmp}" -javaagent:"$AGENT" \
  -- MEMORY_ONLY 4 1 untiered
# A Spark 3.5 whose AppStatusListener lacks onUnpersistRDD (Spark's listener base class answers
# the event instead): one line naming it; Spark left alone, the sums right.
if wanted spark-without-a-method; then
  "$STOCK_JDK/bin/java" -cp "$OUT/classes:$SPARK_CP" org.teraheap.hybridtest.WithoutMethod \
    org.apache.spark.status.AppStatusListener onUnpersistRDD "$OUT/without-a-method" >/dev/null \
    || die "cannot write a Spark class without a method"
fi
SPARK_CP="$OUT/without-a-method:$SPARK_CP" check spark-without-a-method 0 \
  "lacks \[AppStatusListener.onUnpersistRDD" -javaagent:"$AGENT" -- MEMORY_ONLY 4 1 untiered
if [ -e build/spark-3.4.4/spark-classpath.txt ]; then
  SPARK_CP=$(cat build/spark-3.4.4/spark-classpath.txt) \
    check unknown-spark 0 "Spark 3.4.4 is not a release this jar knows" -javaagent:"$AGENT" -- MEMORY_ONLY 4 1 untiered
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
