#!/bin/bash
# usage: tests/unit/run.sh
# Unit tests of TeraHeap's HotSpot code that runs without a JVM: today the H1 size policy
# (teraHeapH1SizePolicy.cpp), compiled on its own with made-up signal sequences.
# Ends with "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
out=build/unit
mkdir -p "$out/include"
: >"$out/include/precompiled.hpp"   # HotSpot's precompiled header, not needed by the policy
if ! g++ -std=c++14 -O1 -Wall -Werror -I "$out/include" -I jvm/src/hotspot/share \
     -o "$out/TestH1SizePolicy" tests/unit/TestH1SizePolicy.cpp \
     jvm/src/hotspot/share/gc/teraheap/teraHeapH1SizePolicy.cpp; then
  echo "0 passed, 1 failed"
  exit 1
fi
"$out/TestH1SizePolicy"
