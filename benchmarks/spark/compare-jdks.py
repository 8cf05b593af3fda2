#!/usr/bin/python3
"""One Spark configuration on two or more builds of the JDK, side by side: how a change to the JVM
moves a workload's time, its GC pauses and its major faults.

  compare-jdks.py run --jdks NAME=DIR NAME=DIR ... [--options NAME=JVM_OPTIONS ...] [--config th]
                      [--workloads pr] [--scale 60] [--repeat 3] [--heap 512m] [--cap 1024m] [--h2 5g]
                      [--csv build/bench/jdks.csv]
      each repeat runs every (workload, JDK) once, in a new random order, with the page cache
      dropped before each run (bench.py run ... --drop-caches, with TERAHEAP_BENCH_JDK=DIR). Each
      row is bench.py's row with the JDK's name in front. Keep a copy of build/jdk before a change
      (cp -a build/jdk ~/jdk-before) to compare it with the build after, or name one JDK twice
      with JVM options for one name (--options off=-XX:SomeFlag=0, given as JAVA_TOOL_OPTIONS) to
      compare a flag's settings. The defaults are the
      papers' regime of docs/results/papers-regime.md (D about 2.4 GB).
  compare-jdks.py table F
      medians per workload and JDK of the wall time, minor and full GC time, major faults and (in
      runs that counted it) the bytes read from the disk, each
      JDK's time against the first one named in --jdks, and whether every run of a workload gave the same result
"""

import csv
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BENCH = HERE / "bench.py"
sys.path.insert(0, str(HERE.parent))
from benchlib import bench_run, check_runs, die, run_or_table, run_shuffled  # noqa: E402


def jdks_of(args):
    jdks = {}
    for spec in args.jdks:
        name, _, path = spec.partition("=")
        if not path or not (Path(path) / "bin" / "java").exists():
            die(f"--jdks takes NAME=DIR with DIR/bin/java present, not '{spec}'")
        jdks[name] = str(Path(path).resolve())
    return jdks


def run(args):
    jdks = jdks_of(args)
    options = {}
    for spec in args.options:
        name, _, opts = spec.partition("=")
        if name not in jdks or not opts:
            die(f"--options takes NAME=JVM_OPTIONS for a NAME of --jdks, not '{spec}'")
        options[name] = opts

    def one(args, workload, name, runs_csv):
        env = {"TERAHEAP_BENCH_JDK": jdks[name], "JAVA_TOOL_OPTIONS": options.get(name)}
        return dict(jdk=name, jdk_index=list(jdks).index(name), **bench_run(BENCH, args, workload, args.config, runs_csv,
                                          env))

    for rep, workload, name, row in run_shuffled(args, jdks, one):
        print(f"repeat {rep}: {workload} {name}: {row['status']}, {row['wall_s']} s, full GC "
              f"{row['major_gc_s']} s, major faults {row['major_faults']}", flush=True)


def table(args):
    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    # In the order --jdks named them (CSVs from before that column: as they first ran).
    names = list(dict.fromkeys(r["jdk"] for r in sorted(rows, key=lambda r: int(r.get("jdk_index") or 0))))
    # What the runs read from the disk, where the CSV has it (runs since blkio counting).
    reads = all(r.get("read_mb") for r in rows)
    print("| workload | JDK | runs | time | minor GC | full GC | major faults | "
          + ("read from disk (MB) | " if reads else "") + "time / " + names[0] + " |")
    print("| --- " * (9 if reads else 8) + "|")
    for workload in dict.fromkeys(r["workload"] for r in rows):
        base = None
        for name in names:
            sel = [r for r in rows if r["workload"] == workload and r["jdk"] == name]
            if not sel:
                continue
            med = {k: statistics.median(float(r[k] or 0) for r in sel)
                   for k in ("wall_s", "minor_gc_s", "major_gc_s", "major_faults") + (("read_mb",) if reads else ())}
            base = base or med["wall_s"]
            read = f"{med['read_mb']:.0f} | " if reads else ""
            print(f"| {workload} | {name} | {len(sel)} | {med['wall_s']:.1f} s | {med['minor_gc_s']:.1f} s "
                  f"| {med['major_gc_s']:.1f} s | {med['major_faults']:.0f} | {read}{med['wall_s'] / base:.3f} |")
    check_runs(BENCH, args.csv)


def jdk_options(parser):
    parser.add_argument("--jdks", nargs="+", required=True, metavar="NAME=DIR",
                        help="the JDKs to compare, the first the baseline (required)")
    parser.add_argument("--options", nargs="+", default=[], metavar="NAME=JVM_OPTIONS",
                        help="JVM options for one NAME of --jdks, as JAVA_TOOL_OPTIONS (default: none)")
    parser.add_argument("--config", default="thf",
                        help="the bench.py configuration every JDK runs (default: thf, TeraHeap without "
                             "dynamic H1, which a JDK built before it ignores)")


def main():
    run_or_table(__doc__, run, table, extra=jdk_options, workloads=["pr"], scale="60", repeat=3,
                 heap="512m", cap="1024m", h2="5g", timeout=900, csv=str(REPO / "build" / "bench" / "jdks.csv"))


if __name__ == "__main__":
    main()
