# Shared by the benchmark and test scripts. Functions only: sourced before a script cds to the
# repository's root, so that script_args can still read the script by the path it was run as.

# The median of the numbers on standard input, one per line (the upper one of an even count).
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# a / b to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }

# The script's opening comment: its usage line, what it measures, the variables it reads.
script_help() { awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; }

# A command line the script cannot use: the problem on one line, exit status 2.
script_error() { echo "$0: $* (see --help)" >&2; exit 2; }

# The command line of a script that takes at most MAX arguments (-1: any number), each matching
# PATTERN (an extended regular expression; '' takes anything): -h or --help prints the opening
# comment and exits 0; an option (-x) or argument the script does not take is a script_error.
#   script_args MAX PATTERN "$@"
script_args() {
  local max=$1 pattern=$2 arg
  shift 2
  for arg in "$@"; do
    case "$arg" in
      -h|--help) script_help; exit 0 ;;
      -*) script_error "unknown option '$arg'" ;;
    esac
    [ -z "$pattern" ] || [[ $arg =~ ^($pattern)$ ]] || script_error "cannot use '$arg'"
  done
  if [ "$max" -ge 0 ] && [ $# -gt "$max" ]; then
    [ "$max" -eq 0 ] && script_error "takes no arguments, not '$*'"
    script_error "takes at most $max argument(s), not $#"
  fi
}

# Where the Spark release the scripts run was built (relative to the repository): build/ for the
# one make builds against, build/spark-VERSION/ for TERAHEAP_SPARK_VERSION=VERSION
# (benchmarks/spark/build-release.sh). Both hold spark-classpath.txt and teraheap-bench-spark.jar.
spark_build_dir() { echo "build${TERAHEAP_SPARK_VERSION:+/spark-$TERAHEAP_SPARK_VERSION}"; }

# The Scala line of that release: build-release.sh records it; make's release is Scala 2.12.
spark_scala_version() { cat "$(spark_build_dir)/scala-version" 2>/dev/null || echo 2.12; }

# Whether a command refuses bad input as users are promised: exit status 1, exactly one line of
# output, containing TEXT, and no hs_err file. The output goes to LOG, and what was wrong too.
#   refuses_in_one_line LOG TEXT command...
refuses_in_one_line() {
  local log=$1 text=$2 status
  shift 2
  "$@" >"$log" 2>&1
  status=$?
  if ls hs_err_pid*.log >/dev/null 2>&1; then
    mv hs_err_pid*.log "$(dirname "$log")/"; echo "FAIL an hs_err file" >>"$log"; return 1
  fi
  [ "$status" -eq 1 ] || { echo "FAIL exit status $status, not 1" >>"$log"; return 1; }
  [ "$(wc -l <"$log")" -eq 1 ] || { echo "FAIL more than one line" >>"$log"; return 1; }
  grep -q -- "$text" "$log" || { echo "FAIL it does not say '$text'" >>"$log"; return 1; }
}
