#!/usr/bin/python3
"""TeraHeap with H2's mapping advised for huge pages (-XX:+TeraHeapHugePages, the default) and
without, beside Spark-SD (Parallel, the better Spark-SD baseline in the papers' regime).

  hugepages.py run [--workloads linr pr] [--scale 60] [--repeat 3] [--heap 512m] [--cap 1024m]
                   [--h2 5g] [--csv build/bench/hugepages.csv]
      each repeat runs every (workload, setting) once, in a new random order, with the page cache
      dropped before each run (bench.py run ... --drop-caches); settings: sd (Spark-SD), th
      (TeraHeap), th-4k (TeraHeap with -XX:-TeraHeapHugePages). Each row is bench.py's row with
      the setting in front. The defaults are the papers' regime of docs/results/papers-regime.md (D about 2.4 GB).
  hugepages.py table F
      medians per workload and setting, major faults, and the ratios; checks that every run of a
      workload gave the same result (bench.py check)
"""

import csv
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BENCH = HERE / "bench.py"
sys.path.insert(0, str(HERE.parent))
from benchlib import bench_run, check_runs, run_or_table, run_shuffled  # noqa: E402
# H1 fixed on both TeraHeap sides: dynamic H1 would move it with the I/O wait the pages change.
SETTINGS = {"sd": ("sd", ""), "th": ("thf", ""), "th-4k": ("thf", "-XX:-TeraHeapHugePages")}


def one(args, workload, setting, runs_csv):
    config, opts = SETTINGS[setting]
    return dict(setting=setting, **bench_run(BENCH, args, workload, config, runs_csv, {"JAVA_TOOL_OPTIONS": opts}))


def run(args):
    for rep, workload, setting, row in run_shuffled(args, SETTINGS, one):
        print(f"repeat {rep}: {workload} {setting}: {row['status']}, {row['wall_s']} s, "
              f"major faults {row['major_faults']}", flush=True)


def table(args):
    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    print("| workload | scale | Spark-SD | TeraHeap, 4 KB pages | TeraHeap, huge pages | SD / TeraHeap (4 KB) "
          "| SD / TeraHeap (huge) | major faults (4 KB / huge) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for workload, scale in dict.fromkeys((r["workload"], r["scale"]) for r in rows):
        sel = {s: [r for r in rows if (r["workload"], r["scale"], r["setting"]) == (workload, scale, s)]
               for s in SETTINGS}
        if not all(sel.values()):
            continue
        wall = {s: statistics.median(float(r["wall_s"]) for r in rs) for s, rs in sel.items()}
        faults = {s: statistics.median(float(r["major_faults"] or 0) for r in rs) for s, rs in sel.items()}
        runs = {s: len(rs) for s, rs in sel.items()}
        print(f"| {workload} | {scale} | {wall['sd']:.1f} s ({runs['sd']}) | {wall['th-4k']:.1f} s ({runs['th-4k']}) "
              f"| {wall['th']:.1f} s ({runs['th']}) | {wall['sd'] / wall['th-4k']:.2f} | {wall['sd'] / wall['th']:.2f} "
              f"| {faults['th-4k']:.0f} / {faults['th']:.0f} |")
    check_runs(BENCH, args.csv)


def main():
    run_or_table(__doc__, run, table, workloads=["linr", "pr"], scale="60", repeat=3, heap="512m",
                 cap="1024m", h2="5g", timeout=900, csv=str(REPO / "build" / "bench" / "hugepages.csv"))


if __name__ == "__main__":
    main()
