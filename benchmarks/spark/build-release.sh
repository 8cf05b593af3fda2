#!/bin/bash
# usage: benchmarks/spark/build-release.sh VERSION [checks]
# Fetches one Spark release from Maven Central and builds for it, into build/spark-VERSION/:
#   spark-classpath.txt        Spark's class path (with "checks": core and SQL only, all that the
#                              agent's checks need, for releases whose GraphX and MLlib are not served)
#   teraheap-bench-spark.jar   the suite's workloads compiled against it (not with "checks")
#   spark-home/                its Spark home, with bin/spark-submit (spark/home.sh)
#   scala-version              the Scala line its jars are built for
# Scripts run that release when TERAHEAP_SPARK_VERSION=VERSION is set (tests/spark/run.sh,
# benchmarks/spark/bench.py, spark/cluster.sh); without it they run the release make builds
# against (build/spark-classpath.txt). Spark 3.x is taken for Scala 2.12, Spark 4.x for 2.13.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args 2 '[0-9]+\.[0-9]+\.[0-9]+(-[A-Za-z0-9.]+)?|checks' "$@"
[ $# -ge 1 ] || script_error "needs a Spark version, e.g. 4.2.0"
cd "$(dirname "$0")/../.."
source jvm/scripts/common.sh
VERSION=$1 WHAT=${2:-workloads}
case "$VERSION" in
  3.*) SCALA=2.12 ;;
  *) SCALA=2.13 ;;
esac
OUT=$PWD/build/spark-$VERSION
mkdir -p "$OUT"
MVN=(env JAVA_HOME="$STOCK_JDK" mvn -B -q -Dstyle.color=never -Dspark.version="$VERSION"
     -Dscala.binary.version="$SCALA" dependency:build-classpath -Dmdep.outputFile="$OUT/spark-classpath.txt")
if [ "$WHAT" = checks ]; then
  (cd tests/spark && "${MVN[@]}") || die "Spark $VERSION (spark-sql_$SCALA) cannot be fetched from Maven Central"
  rm -f "$OUT/teraheap-bench-spark.jar"
else
  (cd benchmarks/spark && "${MVN[@]}" -Dbuild.dir="$OUT/maven" package) \
    || die "the workloads do not build against Spark $VERSION (Scala $SCALA)"
  cp "$OUT/maven/teraheap-bench-spark-0.1.jar" "$OUT/teraheap-bench-spark.jar"
fi
echo "$SCALA" >"$OUT/scala-version"
TERAHEAP_SPARK_VERSION=$VERSION spark/home.sh >/dev/null
# Maven leaves an unchanged class path file alone: make's target is stamped here.
touch "$OUT/spark-classpath.txt"
echo "[teraheap] Spark $VERSION ready: $OUT (spark-home/bin/spark-submit)"
