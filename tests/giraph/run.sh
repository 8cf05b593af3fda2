#!/bin/bash
# usage: tests/giraph/run.sh
# The Giraph tests: every workload of the Giraph suite on a small synthetic graph, with
# teraheap-giraph.jar on unmodified Giraph 1.3.0, in these configurations:
#   th         build/jdk, TeraHeap on, the agent (its verify option, and the edges and every
#              superstep's messages advised to move), a full GC before each superstep
#   th-verify  the same under -XX:+VerifyBeforeGC -XX:+VerifyAfterGC
#   th-g1-pauses  th on G1 (experimental), each superstep starting with a concurrent cycle
#              (-XX:+ExplicitGCInvokesConcurrent) instead of a full GC: groups move in G1's pauses,
#              marking frees their regions, and the GC log must show no full GC
#   th-g1-pauses-verify  the same under G1's heap verification, pr only
#   off        build/jdk with the agent, TeraHeap off (pr only)
#   stock      Debian's stock JVM with the agent (pr only)
#   ooc        build/jdk, TeraHeap off, Giraph's out-of-core mode (the suite's baseline)
# Each run's per-vertex results must equal those of a reference computed without Giraph; with
# TeraHeap on, sampled edge buffers and message buffers must have reached H2, and H2 must hold at
# most twice the data live in it plus a region per label after every superstep. One line per check,
# "PASS name" or "FAIL name", then "N passed, N failed". GIRAPH_TEST_WORKLOADS="pr bfs" narrows it.
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
set +e   # a failing check is counted and reported, not the end of the run
JDK=build/jdk
AGENT=build/teraheap-giraph.jar
for f in "$JDK/bin/java" "$AGENT" build/giraph-classpath.txt build/teraheap-bench-giraph.jar; do
  [ -e "$f" ] || die "$f is missing: run make first"
done
OUT=build/giraph-tests
rm -rf "$OUT" && mkdir -p "$OUT/logs" "$OUT/results"
CP=build/teraheap-bench-giraph.jar:$(cat build/giraph-classpath.txt)
H2_DIR=$(mktemp -d "${TMPDIR:-/tmp}/teraheap-giraph-test.XXXXXX")
trap 'rm -rf "$H2_DIR"' EXIT
passed=0 failed=0

result() {  # name status log [reason]
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS $1"
  else
    failed=$((failed + 1)); echo "FAIL $1 (log: $3)${4:+: $4}"
  fi
}

# 5,000 vertices, about 50,000 undirected edges, power-law degrees, weights in [1, 100).
GRAPH=$OUT/graph.e
"$STOCK_JDK/bin/java" -cp "$CP" org.teraheap.bench.giraph.GraphGenerator "$GRAPH" 0.05 \
  >"$OUT/logs/generate.log" 2>&1 || die "the graph generator failed (log: $OUT/logs/generate.log)"

TH=(-XX:+EnableTeraHeap -XX:TeraHeapSize=1g -XX:TeraHeapRegionSize=1m -XX:TeraHeapPath="$H2_DIR")
VERIFY=(-XX:+UnlockDiagnosticVMOptions -XX:+VerifyBeforeGC -XX:+VerifyAfterGC)
# TeraHeap on G1 (experimental, docs/g1.md). With System.gc() starting a concurrent cycle instead
# of a full GC, groups move in G1's pauses and their regions are freed by marking.
G1=(-XX:+UnlockExperimentalVMOptions -XX:+UseG1GC -XX:+TeraHeapG1InProgress)
G1_PAUSES=(-XX:+ExplicitGCInvokesConcurrent)

# A bad agent option: one line and exit status 1, not the JVM's abort with a stack trace.
refuses_in_one_line "$OUT/logs/giraph-bad-agent-option.log" "unknown agent option 'fast'" \
  "$JDK/bin/java" "${TH[@]}" -javaagent:"$AGENT"=fast -version
result giraph-bad-agent-option $? "$OUT/logs/giraph-bad-agent-option.log"

run() {  # workload config java [jvm options...] [-- GiraphBench options...]
  local w=$1 config=$2 java=$3; shift 3
  local name=giraph-$w-$config log=$OUT/logs/giraph-$w-$config.log out=$OUT/results/$w-$config
  local jvm=() bench=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do jvm+=("$1"); shift; done
  [ $# -gt 0 ] && { shift; bench=("$@"); }
  local gc=(-XX:+UseParallelGC) gc_log=$OUT/logs/giraph-$w-$config.gc.log
  [[ $config == *g1* ]] && gc=("${G1[@]}" -Xlog:gc:file="$gc_log"::filecount=0)
  "$java" -Xmx256m "${gc[@]}" "${jvm[@]}" -cp "$CP" org.teraheap.bench.giraph.GiraphBench "$w" \
    --graph "$GRAPH" --out "$out" --gc-each-superstep "${bench[@]}" >"$log" 2>&1
  local status=$? reason=""
  [ $status -eq 0 ] || reason="exit code $status"
  if ls hs_err_pid*.log >/dev/null 2>&1; then
    status=1; reason="hs_err file"; mv hs_err_pid*.log "$OUT/logs/"
  fi
  if [ $status -eq 0 ]; then
    "$STOCK_JDK/bin/java" -cp "$CP" org.teraheap.bench.giraph.Compare "$w" "$OUT/results/$w-reference" \
      "$out" >>"$log" 2>&1 || { status=1; reason="results differ from the reference"; }
  fi
  if [ $status -eq 0 ] && [[ $config == th* ]]; then
    # The agent's samples: some edge buffers in H2 at a superstep's start, and some message buffers
    # of a superstep in H2 once the next one has read them.
    grep -qE 'verify: superstep [0-9]+: edges ([1-9][0-9]*)/' "$log" \
      || { status=1; reason="no sampled edge buffer reached H2"; }
    grep -qE 'messages of superstep [0-9]+ ([1-9][0-9]*)/' "$log" \
      || { status=1; reason="no sampled message buffer reached H2"; }
  fi
  if [ $status -eq 0 ] && [[ $config == th* ]]; then
    # H2's use after each superstep's full GC, against the edges and the messages it just moved.
    local space excess
    space=$(sed -n 's/^RESULT .*\(h2_peak_bytes=.*\)$/\1/p' "$log")
    excess=$(echo "$space" | sed -n 's/.*h2_worst_excess_bytes=\(-\{0,1\}[0-9]*\).*/\1/p')
    if [ -z "$excess" ]; then
      status=1; reason="no report of H2's space"
    elif [ "$excess" -gt 0 ]; then
      status=1; reason="H2 held $excess bytes more than twice its live data and a region per label"
    fi
    echo "$w $config $space" >>"$OUT/h2-space.txt"
  fi
  if [ $status -eq 0 ] && [[ $config == *g1-pauses* ]]; then
    if ! grep -q 'Pause Young' "$gc_log" 2>/dev/null; then
      status=1; reason="no G1 pause in the GC log ($gc_log)"
    elif grep -q 'Pause Full' "$gc_log"; then
      status=1; reason="a full GC ran, though every collection was to be a G1 pause or a marking cycle"
    fi
  fi
  if [ $status -eq 0 ] && { [ "$config" = off ] || [ "$config" = stock ]; }; then
    # With TeraHeap off or a stock JVM the agent does nothing, and says so in one line.
    [ "$(grep -c '^\[teraheap-giraph\]' "$log")" = 1 ] && grep -q '^\[teraheap-giraph\] TeraHeap is off' "$log" \
      || { status=1; reason="the agent did not say, in one line, that TeraHeap is off"; }
  fi
  result "$name" "$status" "$log" "$reason"
}

for w in ${GIRAPH_TEST_WORKLOADS:-pr cdlp wcc bfs sssp}; do
  "$STOCK_JDK/bin/java" -cp "$CP" org.teraheap.bench.giraph.Reference "$w" "$GRAPH" \
    "$OUT/results/$w-reference" >"$OUT/logs/reference-$w.log" 2>&1 \
    || { result "giraph-$w-reference" 1 "$OUT/logs/reference-$w.log" "the reference failed"; continue; }
  run "$w" th "$JDK/bin/java" "${TH[@]}" -javaagent:"$AGENT"=verify,moveAt=0
  run "$w" th-verify "$JDK/bin/java" "${TH[@]}" "${VERIFY[@]}" -javaagent:"$AGENT"=verify,moveAt=0
  run "$w" th-g1-pauses "$JDK/bin/java" "${TH[@]}" "${G1_PAUSES[@]}" -javaagent:"$AGENT"=verify,moveAt=0
  # The agent with TeraHeap off weaves nothing, whatever the workload: one is enough.
  if [ "$w" = pr ]; then
    run "$w" th-g1-pauses-verify "$JDK/bin/java" "${TH[@]}" "${G1_PAUSES[@]}" "${VERIFY[@]}" -XX:+VerifyDuringGC \
      -javaagent:"$AGENT"=verify,moveAt=0
    run "$w" off "$JDK/bin/java" -javaagent:"$AGENT"
    run "$w" stock "$STOCK_JDK/bin/java" -javaagent:"$AGENT"
  fi
  run "$w" ooc "$JDK/bin/java" -- --ca giraph.userPartitionCount=8 --ca giraph.useOutOfCoreGraph=true \
    --ca giraph.partitionsDirectory="$H2_DIR/ooc-$w"
done
# By default the edges and messages move only when the latest full GC left H1 at least 80% full:
# here H1 holds them easily, so every superstep keeps them and nothing reaches H2.
kept_in_h1() {
  local name=giraph-pr-kept-in-h1 log=$OUT/logs/giraph-pr-kept-in-h1.log out=$OUT/results/pr-kept
  local status reason=""
  "$JDK/bin/java" -Xmx256m -XX:+UseParallelGC "${TH[@]}" -javaagent:"$AGENT"=verbose -cp "$CP" \
    org.teraheap.bench.giraph.GiraphBench pr --graph "$GRAPH" --out "$out" --gc-each-superstep >"$log" 2>&1
  status=$?
  [ $status -eq 0 ] || reason="exit code $status"
  if [ $status -eq 0 ]; then
    "$STOCK_JDK/bin/java" -cp "$CP" org.teraheap.bench.giraph.Compare pr "$OUT/results/pr-reference" \
      "$out" >>"$log" 2>&1 || { status=1; reason="results differ from the reference"; }
  fi
  if [ $status -eq 0 ]; then
    if ! grep -qE 'superstep [0-9]+: messages of superstep [0-9]+ kept in H1, untagged' "$log"; then
      status=1; reason="no superstep said it kept its edges and messages in H1"
    elif grep -q 'advised to move' "$log"; then
      status=1; reason="edges or messages were advised to move though H1 held them"
    elif grep -qE 'bytesMoved=[1-9]' "$log"; then
      status=1; reason="something moved to H2 though H1 held it"
    fi
  fi
  result "$name" "$status" "$log" "$reason"
}
if [[ " ${GIRAPH_TEST_WORKLOADS:-pr} " == *" pr "* ]] && [ -e "$OUT/results/pr-reference" ]; then
  kept_in_h1
fi

# A graph whose edges, and then one superstep's messages, overfill H1 before the agent's usual
# points tag them: 100,000 vertices, about a million undirected edges (32 MB of edge buffers),
# bfs without a combiner under -Xmx72m. Giraph gathers the edges in its edge store until input
# ends, and a superstep's messages in its incoming store until the superstep ends. Without the
# agent's sweeps (sweepAt=0) this run dies of GC overhead during input; with edges swept but not
# messages, it died at superstep 5. It must finish, agree with the reference, and have swept both.
BIG=$OUT/graph-big.e
"$STOCK_JDK/bin/java" -cp "$CP" org.teraheap.bench.giraph.GraphGenerator "$BIG" 1 \
  >"$OUT/logs/generate-big.log" 2>&1 || die "the graph generator failed (log: $OUT/logs/generate-big.log)"
pressure_sweep() {  # config java [jvm options...]
  local config=$1 java=$2; shift 2
  local name=giraph-bfs-sweep-$config log=$OUT/logs/giraph-bfs-sweep-$config.log
  local out=$OUT/results/bfs-big-$config status reason=""
  timeout 300 "$java" @benchmarks/giraph/java-options -Xmx72m -XX:+UseParallelGC "${TH[@]}" "$@" \
    -javaagent:"$AGENT"=verbose -cp "$CP" org.teraheap.bench.giraph.GiraphBench bfs --graph "$BIG" \
    --out "$out" >"$log" 2>&1
  status=$?
  [ $status -eq 0 ] || reason="exit code $status"
  if ls hs_err_pid*.log >/dev/null 2>&1; then
    status=1; reason="hs_err file"; mv hs_err_pid*.log "$OUT/logs/"
  fi
  if [ $status -eq 0 ]; then
    "$STOCK_JDK/bin/java" -cp "$CP" org.teraheap.bench.giraph.Compare bfs "$OUT/results/bfs-big-reference" \
      "$out" >>"$log" 2>&1 || { status=1; reason="results differ from the reference"; }
  fi
  if [ $status -eq 0 ]; then
    grep -qE 'sweep: .*; [1-9][0-9]* edge buffers' "$log" \
      || { status=1; reason="no edge buffer was tagged while the graph loaded"; }
    grep -qE 'sweep: .*; [1-9][0-9]* message buffers' "$log" \
      || { status=1; reason="no message buffer was tagged while a superstep ran"; }
  fi
  result "$name" "$status" "$log" "$reason"
}
if [[ " ${GIRAPH_TEST_WORKLOADS:-bfs} " == *" bfs "* ]]; then
  if "$STOCK_JDK/bin/java" -cp "$CP" org.teraheap.bench.giraph.Reference bfs "$BIG" \
      "$OUT/results/bfs-big-reference" >"$OUT/logs/reference-bfs-big.log" 2>&1; then
    pressure_sweep th "$JDK/bin/java"
    pressure_sweep th-verify "$JDK/bin/java" "${VERIFY[@]}"
  else
    result giraph-bfs-big-reference 1 "$OUT/logs/reference-bfs-big.log" "the reference failed"
  fi
fi

# H2's space per workload, in MB: the most it held after a superstep's full GC, the data live in it
# then, and what it held after the job (the edges, which Giraph's local runner keeps).
if [ -s "$OUT/h2-space.txt" ]; then
  echo "| workload | config | supersteps | H2 at most | live then | H2 after the job | live then |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  awk '{ for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
         printf "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f |\n", $1, $2, v["h2_samples"],
           v["h2_peak_bytes"] / 1048576, v["h2_live_at_peak_bytes"] / 1048576,
           v["h2_final_bytes"] / 1048576, v["h2_final_live_bytes"] / 1048576 }' "$OUT/h2-space.txt"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
