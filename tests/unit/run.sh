#!/bin/bash
# usage: tests/unit/run.sh
# Unit tests of TeraHeap's HotSpot code that runs without a JVM: the H1 size policy
# (teraHeapH1SizePolicy.cpp), compiled on its own with made-up signal sequences; and the module's
# shape (tests/unit/module-layers.py: no include cycles, only the natives include the facade, no
# system headers in share/, no file-level state). Ends with "N passed, N failed".
set -uo pipefail
source "$(dirname "$0")/../../benchmarks/common.sh"
script_args 0 '' "$@"
cd "$(dirname "$0")/../.."
out=build/unit
mkdir -p "$out/include"
: >"$out/include/precompiled.hpp"   # HotSpot's precompiled header, not needed by the policy
counts() { tail -1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p'; }
if g++ -std=c++14 -O1 -Wall -Werror -I "$out/include" -I jvm/src/hotspot/share \
     -o "$out/TestH1SizePolicy" tests/unit/TestH1SizePolicy.cpp \
     jvm/src/hotspot/share/gc/teraheap/teraHeapH1SizePolicy.cpp; then
  "$out/TestH1SizePolicy" | tee "$out/policy.log"
  read -r p1 f1 < <(counts <"$out/policy.log")
else
  echo "FAIL the H1 size policy's tests do not compile"
  p1=0 f1=1
fi
python3 tests/unit/module-layers.py | tee "$out/layers.log"
read -r p2 f2 < <(counts <"$out/layers.log")
passed=$(( ${p1:-0} + ${p2:-0} ))
failed=$(( ${f1:-1} + ${f2:-1} ))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
