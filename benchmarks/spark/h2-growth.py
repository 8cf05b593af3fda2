#!/usr/bin/python3
"""H2's use over a Spark run, with and without evacuating sparse labels.

  h2-growth.py run [--workloads sssp pr] [--scale 20] [--repeat 3] [--heap 512m] [--cap 1280m]
                   [--h2 2400m] [--csv build/bench/h2-growth.csv]
      runs each workload under TeraHeap (bench.py run ... th) with
      -XX:TeraHeapEvacuationLiveThresholdPercent at its default and at 0 (never evacuate), the two
      in a new random order in each repeat, and records per run, from its GC log: H2's use at the
      end and at its highest, the regions freed and the objects evacuated
  h2-growth.py table F
      medians per workload and setting, as a Markdown table
"""

import csv
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BENCH = HERE / "bench.py"
sys.path.insert(0, str(HERE.parent))
from benchlib import bench_run, run_or_table, run_shuffled  # noqa: E402
FIELDS = ["workload", "scale", "setting", "status", "wall_s", "checksum", "h2_end_mb", "h2_peak_mb",
          "regions_freed", "objects_evacuated", "evacuated_kb", "regions_freed_by_evacuation",
          "moved_mb", "cached_mb", "gc_log"]
SETTINGS = {"evacuate": [], "never": ["-XX:TeraHeapEvacuationLiveThresholdPercent=0"]}

USED = re.compile(r"freed (\d+) regions; H2 used (\d+)M of")
EVACUATED = re.compile(r"Evacuated (\d+) objects \((\d+)K\) of \d+ sparse labels; freed (\d+) regions")


def parse_gc_log(path):
    used, freed, objects, kb, evac_freed = [], 0, 0, 0, 0
    for line in Path(path).read_text(errors="replace").splitlines():
        m = USED.search(line)
        if m:
            freed += int(m.group(1))
            used.append(int(m.group(2)))
        m = EVACUATED.search(line)
        if m:
            objects += int(m.group(1))
            kb += int(m.group(2))
            evac_freed += int(m.group(3))
    return {"h2_end_mb": used[-1] if used else 0, "h2_peak_mb": max(used) if used else 0,
            "regions_freed": freed + evac_freed, "objects_evacuated": objects,
            "evacuated_kb": kb, "regions_freed_by_evacuation": evac_freed}


def one(args, workload, setting, bench_csv):
    # H1 fixed: dynamic H1 would move it with the I/O wait the settings change.
    row = bench_run(BENCH, args, workload, "thf", bench_csv, {"JAVA_TOOL_OPTIONS": " ".join(SETTINGS[setting])},
                    drop_caches=False)
    out = {"workload": workload, "scale": args.scale, "setting": setting, "status": row["status"],
           "wall_s": row["wall_s"], "checksum": row["checksum"], "moved_mb": row.get("h2_moved_mb", ""),
           "cached_mb": row.get("cached_mb", "")}
    gc_log = REPO / Path(row["log"]).with_suffix(".gc.log")
    if gc_log.exists():
        out.update(parse_gc_log(gc_log))
        out["gc_log"] = str(gc_log.relative_to(REPO))
    return out


def run(args):
    for rep, workload, setting, row in run_shuffled(args, SETTINGS, one, FIELDS):
        print(f"repeat {rep}: {workload} {setting}: {row['status']}, {row['wall_s']} s, H2 "
              f"{row.get('h2_end_mb')} MB at the end (peak {row.get('h2_peak_mb')}), "
              f"{row.get('regions_freed')} regions freed", flush=True)


def table(args):
    with open(args.csv) as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    print("| workload | setting | runs | time | H2 at the end (MB) | H2 at its highest (MB) "
          "| regions freed | of them by evacuation | objects evacuated |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for workload in dict.fromkeys(r["workload"] for r in rows):
        for setting in SETTINGS:
            sel = [r for r in rows if r["workload"] == workload and r["setting"] == setting]
            if not sel:
                continue
            med = lambda k: statistics.median(float(r[k] or 0) for r in sel)  # noqa: E731
            print(f"| {workload} | {setting} | {len(sel)} | {med('wall_s'):.1f} s | {med('h2_end_mb'):.0f} "
                  f"| {med('h2_peak_mb'):.0f} | {med('regions_freed'):.0f} "
                  f"| {med('regions_freed_by_evacuation'):.0f} | {med('objects_evacuated'):.0f} |")
    sums = {}
    for r in rows:
        sums.setdefault((r["workload"], r["scale"]), set()).add(r["checksum"])
    for (w, s), c in sums.items():
        print(f"\n{w} at scale {s}: {'one checksum' if same(c) else 'CHECKSUMS DIFFER: ' + ', '.join(c)}")


def same(checksums):
    """One checksum, or floating-point ones within 1e-9 of each other (summation order)."""
    if len(checksums) == 1:
        return True
    try:
        values = [float(c) for c in checksums]
    except ValueError:
        return False
    return max(values) - min(values) <= 1e-9 * max(abs(v) for v in values)


def main():
    run_or_table(__doc__, run, table, workloads=["sssp", "pr"], scale="20", repeat=3, heap="512m",
                 cap="1280m", h2="2400m", timeout=900, csv=str(REPO / "build" / "bench" / "h2-growth.csv"))


if __name__ == "__main__":
    main()
