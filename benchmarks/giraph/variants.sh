#!/bin/bash
# usage: benchmarks/giraph/variants.sh REPEATS OUT_DIR 'LABEL|CONFIG|ENV|RUN_OPTIONS' ...
# Runs named variants of one Giraph job, each repeat in a new random order, one CSV per variant
# (OUT_DIR/LABEL.csv). A variant is a configuration of `bench.py run`, the environment it runs in
# (variables such as TERAHEAP_BENCH_JDK, the JDK to run, or the JVM's own) and the options of
# `bench.py run`, the workload first:
#   benchmarks/giraph/variants.sh 6 build/bench/jvm-cost \
#       'h1|h1||sssp --scale 4 --heap 1g' 'th|thjvm||sssp --scale 4 --heap 1g'
# ENV and RUN_OPTIONS are split as a shell would split them. Reads no variables itself.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args -1 '' "$@"
[ $# -ge 3 ] || script_error "takes REPEATS, OUT_DIR and at least one variant"
[[ $1 =~ ^[0-9]+$ ]] || script_error "REPEATS is a number, not '$1'"
repeats=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for i in $(seq "$repeats"); do
  printf '%s\n' "$@" | shuf | while IFS='|' read -r label config env options; do
    read -r workload rest <<<"$options"
    echo "$(date +%T) repeat $i: $label" >&2
    # env and options are the caller's words, split as a shell would split them.
    eval "env $env \"$here/bench.py\" run $workload $config $rest --csv \"$out/$label.csv\"" \
      || echo "$label: failed (its row in $out/$label.csv says how)" >&2
  done
done
