#!/bin/bash
# usage: benchmarks/gc/scale.sh [GB_IN_H2 ...]      (default: 1 8 32)
# GC pauses as H2 grows: the same program and H1 (-Xms2g -Xmx2g -Xmn512m) with 0 GB (H2 empty) and
# with the given GB of mostly clean data in H2 (H2Scale.java), each timing ROUNDS full GCs and
# ROUNDS minor GCs (default 20) from the GC log.
# REPEAT (default 3) rounds of all sizes, each round in a new random order; medians over all of a
# size's pauses (with how many were timed). H2's file goes to TERAHEAP_BENCH_DIR (default /tmp) and needs the largest size's
# room on disk. Raw lines: build/bench/gc-scale.txt; every timed pause: build/bench/gc-scale.csv.
# COLLECTOR=g1 runs TeraHeap on G1 (experimental, docs/g1.md) with G1 sizing its young generation,
# adds ROUNDS rounds of old garbage (concurrent cycles at 10% occupancy, then mixed pauses), and
# times young (normal), concurrent start, Remark and mixed pauses; its files are then named
# gc-scale-g1.*.
set -euo pipefail
source "$(dirname "$0")/../common.sh"
script_args -1 '[0-9]+' "$@"
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 8 32)
sizes=(0 "${sizes[@]}")
H2_DIR=${TERAHEAP_BENCH_DIR:-/tmp}
ROUNDS=${ROUNDS:-20}
REPEAT=${REPEAT:-3}
COLLECTOR=${COLLECTOR:-parallel}
case $COLLECTOR in
  parallel) gc_flags=(-Xmn512m); mode=; tag=gc-scale
            kinds=("Pause Young (Allocation Failure)" "Pause Full (System.gc())")
            names=("minor GC" "full GC") ;;
  # The heap pre-touched: G1 copies into regions that may never have been touched, and faulting
  # their pages in while H2's data fills the page cache makes the kernel reclaim in the pause.
  g1) gc_flags=(-XX:+UnlockExperimentalVMOptions -XX:+UseG1GC -XX:+TeraHeapG1InProgress -XX:+AlwaysPreTouch
                -XX:InitiatingHeapOccupancyPercent=10 -XX:-G1UseAdaptiveIHOP -XX:MaxTenuringThreshold=1)
      mode=cycles; tag=gc-scale-g1
      kinds=("Pause Young (Normal)" "Pause Young (Concurrent Start)" "Pause Remark" "Pause Young (Mixed)"
             "Pause Full (System.gc())")
      names=("young pause" "concurrent start" "Remark" "mixed pause" "full GC") ;;
  *) script_error "COLLECTOR=$COLLECTOR: give parallel or g1" ;;
esac
mkdir -p build/bench
out=build/bench/$tag.txt
: >"$out"
max_gb=0
for gb in "${sizes[@]}"; do (( gb > max_gb )) && max_gb=$gb; done
h2size=$(( max_gb + max_gb / 8 + 1 ))g
classes=build/bench/gc-classes
rm -rf "$classes" && mkdir -p "$classes"
build/stock-jdk/bin/javac -cp build/teraheap-api.jar -d "$classes" benchmarks/gc/H2Scale.java benchmarks/gc/FullGcPause.java

for rep in $(seq "$REPEAT"); do
  for gb in $(printf '%s\n' "${sizes[@]}" | shuf); do
    log=build/bench/$tag-$gb-$rep.log
    line=$(build/jdk/bin/java -XX:+EnableTeraHeap -XX:TeraHeapSize="$h2size" -XX:TeraHeapPath="$H2_DIR" \
      -XX:-TeraHeapPreallocate -Xms2g -Xmx2g "${gc_flags[@]}" -Xlog:gc,gc+teraheap=debug:file=$log \
      -cp build/teraheap-api.jar:"$classes" H2Scale "$gb" "$ROUNDS" $mode)
    echo "$line rep=$rep" | tee -a "$out"
    # The timed pauses are the last ROUNDS of each kind (the moves come before them).
    for k in "${!kinds[@]}"; do
      { grep -F "${kinds[$k]}" "$log" || true; } | tail -n "$ROUNDS" | sed 's/.* \([0-9.]*\)ms$/\1/' >"$log.$k"
    done
  done
done

# Every timed pause, a row each: build/bench/$tag.csv.
csv=build/bench/$tag.csv
echo "collector,h2_gb,rep,pause,ms" >"$csv"
for rep in $(seq "$REPEAT"); do
  for gb in "${sizes[@]}"; do
    for k in "${!kinds[@]}"; do
      sed "s/^/$COLLECTOR,$gb,$rep,${names[$k]},/" "build/bench/$tag-$gb-$rep.log.$k" >>"$csv"
    done
  done
done

header="| data in H2 | regions |"
rule="| --- | --- |"
for name in "${names[@]}"; do header+=" $name | / empty |"; rule+=" --- | --- |"; done
echo "$header"
echo "$rule"
for gb in "${sizes[@]}"; do
  regions=$(grep "h2GB=$gb " "$out" | head -1 | sed 's/.*regions=\([0-9]*\).*/\1/')
  row="| $gb GB | $regions |"
  for k in "${!kinds[@]}"; do
    empty=$(cat build/bench/$tag-0-*.log.$k | median)
    here=$(cat build/bench/$tag-$gb-*.log.$k | median)
    count=$(cat build/bench/$tag-$gb-*.log.$k | wc -l)
    if [ -n "$here" ] && [ -n "$empty" ]; then
      row+=" $here ms ($count) | $(ratio "$here" "$empty") |"
    else
      row+=" none | - |"
    fi
  done
  echo "$row"
done
