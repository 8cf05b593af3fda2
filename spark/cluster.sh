#!/bin/bash
# usage: spark/cluster.sh start [WORKER_CORES [WORKER_MEMORY]] | stop
# A Spark standalone cluster on this machine, from the Spark jars on Maven Central that make
# fetched (build/spark-classpath.txt, or TERAHEAP_SPARK_VERSION's), run by the TeraHeap JDK:
#   spark/cluster.sh start [WORKER_CORES [WORKER_MEMORY]]   master and one worker (default: 2 cores,
#                                                           8g); prints the master URL
#   spark/cluster.sh stop
# Executors the worker starts run build/jdk with the options the application gives in
# spark.executor.extraJavaOptions (TeraHeap's flags and -javaagent:build/teraheap-spark.jar); each
# executor JVM has its own H2 file. Logs: build/spark-cluster/.
set -euo pipefail
source "$(dirname "$0")/../benchmarks/common.sh"
case "${1:-}" in
  start) shift; script_args 2 '[0-9]+|[0-9]+[kmgtKMGT]' "$@"; set -- start "$@" ;;
  stop) shift; script_args 0 '' "$@"; set -- stop ;;
  -h|--help) script_help; exit 0 ;;
  '') script_error "needs a command: start or stop" ;;
  *) script_error "unknown command '$1': start or stop" ;;
esac
cd "$(dirname "$0")/.."
REPO=$PWD
DIR=$REPO/build/spark-cluster
PORT=${SPARK_MASTER_PORT:-7177}
CLASSPATH=$(spark_build_dir)/spark-classpath.txt
[ -x build/jdk/bin/java ] && [ -f "$CLASSPATH" ] || { echo "cluster.sh: $CLASSPATH is missing: run make first" >&2; exit 1; }

# Spark's launcher wants a SPARK_HOME with a jars/ directory; the class path comes from Maven.
export SPARK_HOME=$DIR/home SPARK_SCALA_VERSION=$(spark_scala_version)
export SPARK_DIST_CLASSPATH=$(cat "$CLASSPATH")
export JAVA_HOME=$REPO/build/jdk SPARK_LOG_DIR=$DIR
mkdir -p "$SPARK_HOME/jars" "$DIR/work"
OPTS=$(grep -v '^#' benchmarks/spark/java-options | tr '\n' ' ')

start() {  # name main-class args...
  local name=$1; shift
  nohup "$JAVA_HOME/bin/java" $OPTS -Xmx512m -cp "$SPARK_DIST_CLASSPATH" "$@" >"$DIR/$name.log" 2>&1 &
  echo $! >"$DIR/$name.pid"
}

wait_for() {  # log pattern
  for _ in $(seq 120); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.5; done
  echo "cluster.sh: timed out; see $1" >&2; exit 1
}

case "${1:-}" in
  start)
    "$REPO/spark/cluster.sh" stop >/dev/null 2>&1 || true   # a cluster left from an earlier start
    start master org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$PORT" --webui-port 0
    wait_for "$DIR/master.log" "I have been elected leader"
    start worker org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --webui-port 0 \
      --cores "${2:-2}" --memory "${3:-8g}" --work-dir "$DIR/work" "spark://127.0.0.1:$PORT"
    wait_for "$DIR/worker.log" "Successfully registered with master"
    echo "spark://127.0.0.1:$PORT"
    ;;
  stop)
    for name in worker master; do
      [ -f "$DIR/$name.pid" ] && kill "$(cat "$DIR/$name.pid")" 2>/dev/null || true
      rm -f "$DIR/$name.pid"
    done
    ;;
esac
