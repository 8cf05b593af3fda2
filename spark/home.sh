#!/bin/bash
# usage: spark/home.sh
# Assembles a Spark home with Spark's own launcher, run by TeraHeap's JDK with the agent, from the
# Spark jars on Maven Central that make fetched: build/spark-home/ (TERAHEAP_SPARK_VERSION=V:
# build/spark-V/spark-home/, after benchmarks/spark/build-release.sh V). In it:
#   bin/spark-submit (spark/spark-submit): Spark's own launcher library builds the driver's
#       command from the options and the defaults below, as Spark's bin/spark-class does;
#   jars/ (links to the jars in ~/.m2); conf/spark-env.sh: build/jdk; conf/spark-defaults.conf:
#       build/jdk for the executors too, -XX:+EnableTeraHeap and the agent on the driver and the
#       executors, and the H2 metrics plugin.
# make runs it; run it again after moving the repository.
set -euo pipefail
source "$(dirname "$0")/../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/.."
source jvm/scripts/common.sh
REPO=$PWD
SPARK=$(spark_build_dir)
[ -f "$SPARK/spark-classpath.txt" ] || die "$SPARK/spark-classpath.txt is missing: run make first"
HOME_DIR=$REPO/$SPARK/spark-home
SCALA=$(spark_scala_version)
rm -rf "$HOME_DIR" && mkdir -p "$HOME_DIR/bin" "$HOME_DIR/jars" "$HOME_DIR/conf"
# The class path file has no final newline: read it whole, so that its last jar is linked too.
IFS=: read -r -a jars <"$SPARK/spark-classpath.txt" || [ ${#jars[@]} -gt 0 ]
for jar in "${jars[@]}"; do
  [ -n "$jar" ] && ln -sf "$jar" "$HOME_DIR/jars/"
done

TH="-XX:+EnableTeraHeap -javaagent:$REPO/build/teraheap-spark.jar"
cat >"$HOME_DIR/conf/spark-defaults.conf" <<CONF
# Written by spark/home.sh: Spark from Maven Central, run by TeraHeap's JDK with H2 on.
# H2 defaults to 8 GB in the temp directory. Your own JVM options go in --driver-java-options or
# spark.driver.extraJavaOptions and spark.executor.extraJavaOptions, which come after these:
#   --driver-java-options "-XX:TeraHeapSize=64g -XX:TeraHeapPath=/mnt/nvme"
# In local mode the driver is the executor, and H1 is --driver-memory.
spark.driver.defaultJavaOptions    $TH
spark.executor.defaultJavaOptions  $TH
spark.executorEnv.JAVA_HOME        $REPO/build/jdk
spark.plugins                      org.teraheap.spark.TeraHeapMetricsPlugin
CONF

cat >"$HOME_DIR/conf/spark-env.sh" <<ENV
# Written by spark/home.sh: the JVM that runs Spark, and Spark's Scala line.
export JAVA_HOME=$REPO/build/jdk SPARK_SCALA_VERSION=$SCALA
ENV
cp spark/spark-submit "$HOME_DIR/bin/spark-submit"
chmod +x "$HOME_DIR/bin/spark-submit"
echo "[teraheap] Spark home ready: $SPARK/spark-home (bin/spark-submit)"
