#!/bin/bash
# The demonstration `make demo` runs: the same program on the TeraHeap JDK with its defaults,
# and on the stock Debian JDK, where the API does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
API=build/teraheap-api.jar

echo "== TeraHeap JDK: java -XX:+EnableTeraHeap -Xlog:gc+init (defaults: 8G of H2 in the temp directory)"
build/jdk/bin/java -XX:+EnableTeraHeap -Xlog:gc+init -cp "$API" demo/Demo.java | grep -v "^\[.*\]\[info\]\[gc,init\] \(Version\|CPUs\|Memory\|Large\|Periodic\|Alignments\|Heap Min\|Heap Initial\|Heap Max\|Pre-touch\|Parallel Workers\)"
echo
echo "== Stock Debian JDK, same program and jar"
build/stock-jdk/bin/java -cp "$API" demo/Demo.java
