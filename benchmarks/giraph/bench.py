#!/usr/bin/python3
"""The Giraph benchmark suite: Giraph's out-of-core mode against TeraHeap, at the same DRAM cap.

  bench.py run WORKLOAD CONFIG --scale S --heap H [--cap C] [--graph F] [--csv F]
      one workload in one configuration; appends a row to the CSV (default build/bench/giraph.csv)
  bench.py suite [--workloads ...] [--configs ...] [--scale S] [--repeat N] --heap H [H ...] --cap C [--mem-heap M]
      every workload in every configuration at every H, N times, in a shuffled order per repeat;
      then the figure (plot) beside the CSV
  bench.py check F
      exits 1 unless, per workload and scale, every configuration gave the same checksum
  bench.py table F
      the medians per workload, H and configuration, as a Markdown table
  bench.py plot F [--heap H] [--out DIR]
      the time breakdown (other, minor GC, major GC) per workload, relative to Giraph-OOC

Workloads (LDBC Graphalytics, on Giraph 1.3.0 from Maven Central): pr, cdlp, wcc, bfs, sssp.
The graph is GraphGenerator's at the given scale (scale * 100,000 vertices, about 10 undirected
edges each, power-law degrees), or any Graphalytics edge list given with --graph.
Configurations, all on build/jdk with the Parallel collector unless named G1, one worker, 2
compute threads, 32 partitions:
  ooc  Giraph-OOC: heap H, Giraph's out-of-core graph and messages (giraph.useOutOfCoreGraph)
       spilling to a directory on the disk
  oocg1  (not run by default) Giraph-OOC on G1, JDK 17's default collector
  mem  Giraph in memory with a heap big enough (--mem-heap), for reference, uncapped
  th   TeraHeap with its defaults: -Xmx H, H2 a file on the disk, build/teraheap-giraph.jar. Under
       a cap, H1 is sized at run time up to H (dynamic H1 is on by default where a memory limit is
       known, since 2026-12-07; rows recorded before had H1 = H, as thf)
  thf  (not run by default) TeraHeap without dynamic H1 (-XX:-TeraHeapDynamicH1): H1 sized by the
       collector up to H, as a stock JVM's heap
  thg1  (not run by default) TeraHeap as th, on G1 (experimental: -XX:+TeraHeapG1InProgress,
       docs/g1.md): groups move at G1's young and mixed pauses
  thjvm  (not run by default) TeraHeap's JVM with H2 as thf, without the agent: nothing is tagged,
       so it is Giraph in H1 on TeraHeap's JVM (the agent's cost is th's time minus this one)
  h1   (not run by default) Giraph in memory on the stock JVM with heap H, under the cap: what
       a user whose graph nearly fits runs, and thjvm's baseline (the same job on the stock JVM)
  thall  (not run by default) the agent as it was before 2026-11-29: the edges and every
       superstep's messages advised to move, sweeps from 50% (its options moveAt=0,sweepAt=50)
The cap is a memory cgroup (v1) over the JVM and its page cache; it needs root, and is skipped
with a warning without it. Sizes take k/m/g suffixes. TERAHEAP_BENCH_JDK names another JDK image
to run every configuration on (an experimental build; default build/jdk); variants.sh beside
this script runs variants that differ in it or in the JVM's environment.
"""

import argparse
import csv
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchlib import (CappedRun, Parser, add_csv_input, add_options, die, gc_times, key_values,  # noqa: E402
                      mb, size, size_bytes)

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "build"
# TERAHEAP_BENCH_JDK runs every configuration on another JDK image (an experimental build, say).
JAVA = Path(os.environ.get("TERAHEAP_BENCH_JDK", BUILD / "jdk")) / "bin" / "java"
AGENT = BUILD / "teraheap-giraph.jar"
BENCH_JAR = BUILD / "teraheap-bench-giraph.jar"
CLASSPATH = BUILD / "giraph-classpath.txt"
JAVA_OPTIONS = Path(__file__).resolve().parent / "java-options"
WORK = Path(os.environ.get("TERAHEAP_BENCH_DIR",
                           os.path.expanduser(os.environ.get("TERAHEAP_WORK", "~/.cache/teraheap"))
                           + "/bench"))
DEFAULT_CSV = BUILD / "bench" / "giraph.csv"

WORKLOADS = ["pr", "cdlp", "wcc", "bfs", "sssp"]
CONFIGS = ["ooc", "mem", "th"]
EXTRA_CONFIGS = ["thf", "oocg1", "thg1", "h1", "thall", "thjvm"]
ALL_CONFIGS = CONFIGS + EXTRA_CONFIGS
TERAHEAP = ("th", "thf", "thg1", "thall", "thjvm")
G1 = ("oocg1", "thg1")
CONFIG_NAMES = {"ooc": "Giraph-OOC", "oocg1": "Giraph-OOC (G1)", "mem": "Giraph in memory",
                "h1": "Giraph in H1", "th": "TeraHeap", "thf": "TeraHeap, H1 fixed", "thg1": "TeraHeap (G1)",
                "thall": "TeraHeap, always moved", "thjvm": "TeraHeap without the agent"}
FIELDS = ["time", "workload", "config", "scale", "heap_mb", "cap_mb", "h2_mb", "status", "wall_s",
          "shutdown_s", "job_s", "other_s", "minor_gc_s", "major_gc_s", "h2_moved_mb", "peak_mb",
          "major_faults", "checksum", "log", "agent_options", "jvm_options"]
# The same partitioning in every configuration: Giraph's out-of-core mode moves whole partitions,
# and one worker would otherwise get a single one.
GIRAPH_OPTIONS = ["giraph.userPartitionCount=32"]


def graph_file(scale, given):
    if given:
        return Path(given)
    path = WORK / "giraph-graphs" / f"scale-{scale}.e"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        subprocess.run([str(JAVA), "-cp", f"{BENCH_JAR}:{CLASSPATH.read_text().strip()}",
                        "org.teraheap.bench.giraph.GraphGenerator", str(tmp), str(scale)],
                       check=True)
        tmp.rename(path)
    return path


def java_command(args, heap, h2, mem_heap, run_dir, graph):
    cmd = [str(JAVA), f"@{JAVA_OPTIONS}"]
    if args.config == "thg1":
        cmd += ["-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress"]
    else:
        cmd += ["-XX:+UseG1GC" if args.config in G1 else "-XX:+UseParallelGC"]
    options = list(GIRAPH_OPTIONS)
    if args.config in ("ooc", "oocg1"):
        cmd += [f"-Xmx{mb(heap)}m"]
        options += ["giraph.useOutOfCoreGraph=true",
                    f"giraph.partitionsDirectory={run_dir}/ooc"]
    elif args.config == "mem":
        cmd += [f"-Xmx{mb(mem_heap)}m"]
    elif args.config == "h1":
        cmd += [f"-Xmx{mb(heap)}m"]
    elif args.config in TERAHEAP:
        options = ["moveAt=0", "sweepAt=50"] if args.config == "thall" else []
        options += [args.agent_options] if args.agent_options else []
        agent = f"-javaagent:{AGENT}" + ("=" + ",".join(options) if options else "")
        # thjvm is measured against h1, a stock JVM whose heap dynamic H1 does not size.
        cmd += ["-XX:-TeraHeapDynamicH1"] if args.config in ("thf", "thjvm") else []
        cmd += ["-XX:+EnableTeraHeap", f"-Xmx{mb(heap)}m", f"-XX:TeraHeapSize={mb(h2)}m",
                f"-XX:TeraHeapPath={args.h2_dir or run_dir}"] + ([] if args.config == "thjvm" else [agent])
    else:
        die(f"unknown configuration '{args.config}': use one of {', '.join(ALL_CONFIGS)}")
    cmd += (args.jvm_options or "").split()
    cmd += [f"-Xlog:gc,gc+teraheap,gc+teraheap+resize:file={run_dir}/gc.log:uptime,tags",
            "-cp", f"{BENCH_JAR}:{CLASSPATH.read_text().strip()}",
            "org.teraheap.bench.giraph.GiraphBench", args.workload, "--graph", str(graph),
            "--out", str(run_dir / "out"), "--threads", "2"]
    for option in options:
        cmd += ["--ca", option]
    return cmd


def run(args):
    heap, cap = size_bytes(args.heap), size_bytes(args.cap) if args.cap else 0
    if args.config == "mem":
        cap = 0   # the reference run: all the DRAM it wants
    h2 = size_bytes(args.h2) if args.h2 else max(4 * heap, 2 << 30)
    mem_heap = size_bytes(args.mem_heap) if args.mem_heap else 4 * heap
    graph = graph_file(args.scale, args.graph)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    run_dir = WORK / f"giraph-{args.workload}-{args.config}-{args.scale}-{stamp}-{os.getpid()}"
    run_dir.mkdir(parents=True)
    log_dir = BUILD / "bench" / "giraph-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / f"{run_dir.name}.log"
    cmd = java_command(args, heap, h2, mem_heap, run_dir, graph)
    capped = CappedRun(cmd, run_dir, log, cap, args.timeout)
    peak, faults = capped.peak, capped.major_faults
    result, timers = {}, {}
    for line in capped.text.splitlines():
        if line.startswith("RESULT "):
            result = key_values(line)
        elif line.startswith("GIRAPH "):   # Giraph's own phase timers, on stderr
            timers = key_values(line)
    status = capped.status(bool(result))
    minor, major, moved = gc_times(run_dir / "gc.log")
    if (run_dir / "gc.log").exists():
        shutil.copy(run_dir / "gc.log", log.with_suffix(".gc.log"))
    wall = float(result.get("wall_s", "nan"))
    # Giraph 1.3 spends some 9 s shutting its Netty loops down, the same in every configuration:
    # job_s leaves it out.
    shutdown = float(timers.get("shutdown_s", "nan"))
    job = wall - shutdown
    row = {"time": stamp, "workload": args.workload, "config": args.config, "scale": args.scale,
           "heap_mb": mb(mem_heap if args.config == "mem" else heap), "cap_mb": mb(cap),
           "h2_mb": mb(h2) if args.config in TERAHEAP else 0, "status": status,
           "wall_s": f"{wall:.3f}", "shutdown_s": f"{shutdown:.3f}", "job_s": f"{job:.3f}",
           "other_s": f"{job - minor - major:.3f}",
           "minor_gc_s": f"{minor:.3f}", "major_gc_s": f"{major:.3f}",
           "h2_moved_mb": f"{moved / 2**20:.1f}", "peak_mb": mb(peak), "major_faults": faults,
           "checksum": result.get("checksum", ""), "log": str(log.relative_to(REPO)),
           "agent_options": args.agent_options or "" if args.config in TERAHEAP else "",
           "jvm_options": args.jvm_options or ""}
    csv_file = Path(args.csv)
    csv_file.parent.mkdir(parents=True, exist_ok=True)
    new = not csv_file.exists() or csv_file.stat().st_size == 0
    with open(csv_file, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        w.writerow(row)
    shutil.rmtree(run_dir, ignore_errors=True)
    print(f"{args.workload:5} {CONFIG_NAMES[args.config]:16} scale {args.scale}, H {mb(heap)} MB: {status}, "
          f"{row['job_s']} s without shutdown (minor GC {row['minor_gc_s']}, major GC {row['major_gc_s']}), "
          f"moved to H2 {row['h2_moved_mb']} MB, peak {row['peak_mb']} MB, "
          f"major faults {faults or '-'}, checksum {row['checksum']}", flush=True)
    return status == "ok"


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check(args):
    """Every configuration must agree on each workload's checksum at each scale."""
    groups = {}
    for r in read_rows(args.csv):
        if r["status"] == "ok":
            groups.setdefault((r["workload"], r["scale"]), set()).add(r["checksum"])
    bad = [key for key, sums in groups.items() if len(sums) > 1]
    for workload, scale in sorted(groups):
        print(f"{workload} scale {scale}: "
              f"{'DIFFER' if (workload, scale) in bad else 'agree'} {sorted(groups[(workload, scale)])}")
    return not bad and bool(groups)


def suite(args):
    graph_file(args.scale, args.graph)   # generated once, outside the timed runs
    # The uncapped in-memory reference does not depend on H: it runs once per repeat.
    runs = [(w, c, h) for w in args.workloads for c in args.configs
            for h in (args.heap if c != "mem" else args.heap[:1])]
    ok = True
    for repeat in range(args.repeat):
        random.Random(repeat).shuffle(runs)
        print(f"repeat {repeat + 1} of {args.repeat}", flush=True)
        for workload, config, heap in runs:
            run_args = argparse.Namespace(**vars(args))
            run_args.workload, run_args.config, run_args.heap = workload, config, heap
            ok = run(run_args) and ok
    for heap in args.heap:
        plot(argparse.Namespace(csv=args.csv, heap=heap, out=str(Path(args.csv).resolve().parent)))
    return ok


def plot(args):
    """Stacked bars per workload: other, minor GC and major GC, relative to Giraph-OOC's time."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in read_rows(args.csv) if r["status"] == "ok"]
    heaps = sorted({int(r["heap_mb"]) for r in rows if r["config"] != "mem"})
    heap = str(mb(size_bytes(args.heap)) if args.heap else (heaps[0] if heaps else 0))
    rows = [r for r in rows if r["config"] == "mem" or r["heap_mb"] == heap]
    workloads = [w for w in WORKLOADS if any(r["workload"] == w for r in rows)]
    parts = [("other_s", "other", "#bbbbbb"), ("minor_gc_s", "minor GC", "#56b4e9"),
             ("major_gc_s", "major GC", "#d55e00")]
    fig, ax = plt.subplots(figsize=(1.9 * len(workloads) + 1.5, 3.6))
    configs = [c for c in ALL_CONFIGS if any(r["config"] == c for r in rows)]
    width = 0.8 / len(configs)
    for i, w in enumerate(workloads):
        ooc = [float(r["job_s"]) for r in rows if r["workload"] == w and r["config"] == "ooc"]
        base = statistics.median(ooc) if ooc else None
        for j, config in enumerate(configs):
            rs = [r for r in rows if r["workload"] == w and r["config"] == config]
            if not rs or not base:
                continue
            x, y = i + (j - (len(configs) - 1) / 2) * width, 0.0
            for key, name, color in parts:
                h = statistics.median(float(r[key]) for r in rs) / base
                ax.bar(x, h, width * 0.9, bottom=y, color=color,
                       label=name if i == 0 and j == 0 else None)
                y += h
            ax.text(x, y + 0.02, config, ha="center", va="bottom", fontsize=7, rotation=90)
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads)
    ax.set_ylabel("time / Giraph-OOC's")
    ax.set_title(f"Giraph, H = {heap} MB (mem: uncapped reference)", fontsize=9)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    out = Path(args.out) / f"giraph-breakdown-{heap}m.png"
    fig.savefig(out, dpi=120)
    print(f"figure: {out}")


def table(args):
    rows = [r for r in read_rows(args.csv)]
    configs = [c for c in ALL_CONFIGS if any(r["config"] == c for r in rows)]
    print("| workload | scale | H (MB) | cap (MB) | "
          + " | ".join(CONFIG_NAMES[c] for c in configs)
          + " | Giraph-OOC / TeraHeap | TeraHeap: GC share | moved to H2 (MB) |"
          + (" best Giraph-OOC / TeraHeap (G1) | TeraHeap / TeraHeap (G1) |" if "thg1" in configs else ""))
    print("| --- " * (len(configs) + 7 + (2 if "thg1" in configs else 0)) + "|")
    # One line per workload, scale and H; the uncapped in-memory reference goes on every line.
    keys = sorted({(r["workload"], r["scale"], r["heap_mb"]) for r in rows if r["config"] != "mem"},
                  key=lambda k: (WORKLOADS.index(k[0]) if k[0] in WORKLOADS else 99, k[1], int(k[2])))
    for workload, scale, heap in keys:
        cells, medians = [], {}
        base = [r for r in rows if r["workload"] == workload and r["scale"] == scale
                and (r["config"] == "mem" or r["heap_mb"] == heap)]
        for c in configs:
            rs = [r for r in base if r["config"] == c]
            ok = [float(r["job_s"]) for r in rs if r["status"] == "ok"]
            if ok:
                medians[c] = statistics.median(ok)
                cells.append(f"{medians[c]:.1f} s ({len(ok)}/{len(rs)})")
            else:
                cells.append(", ".join(sorted({r["status"] for r in rs})) or "-")
        th = [r for r in base if r["config"] == "th" and r["status"] == "ok"]
        ratio = f"{medians['ooc'] / medians['th']:.2f}" if "ooc" in medians and "th" in medians else "-"
        gc = (f"{statistics.median((float(r['minor_gc_s']) + float(r['major_gc_s'])) / float(r['job_s']) for r in th):.0%}"
              if th else "-")
        moved = f"{statistics.median(float(r['h2_moved_mb']) for r in th):.0f}" if th else "-"
        cap = next((r["cap_mb"] for r in base if r["config"] != "mem"), "-")
        g1 = ""
        if "thg1" in configs:
            stock = [medians[c] for c in ("ooc", "oocg1") if c in medians]
            g1 = (f" {min(stock) / medians['thg1']:.2f} |" if stock and "thg1" in medians else " - |") \
                + (f" {medians['th'] / medians['thg1']:.2f} |" if "th" in medians and "thg1" in medians else " - |")
        print(f"| {workload} | {scale} | {heap} | {cap} | " + " | ".join(cells)
              + f" | {ratio} | {gc} | {moved} |" + g1)
    best_heaps(rows)


def best_heaps(rows):
    """Where the CSV swept H: each system at its own fastest H (medians), side by side."""
    ok = [r for r in rows if r["status"] == "ok" and r["config"] in ("ooc", "th")]
    if len({r["heap_mb"] for r in ok}) < 2:
        return
    print("\n| workload | scale | Giraph-OOC at its best H | TeraHeap at its best H | Giraph-OOC / TeraHeap |")
    print("| --- | --- | --- | --- | --- |")
    for workload, scale in sorted({(r["workload"], r["scale"]) for r in ok},
                                  key=lambda k: (WORKLOADS.index(k[0]) if k[0] in WORKLOADS else 99, k[1])):
        best = {}
        for c in ("ooc", "th"):
            medians = {}
            for heap in {r["heap_mb"] for r in ok}:
                times = [float(r["job_s"]) for r in ok if r["workload"] == workload
                         and r["scale"] == scale and r["config"] == c and r["heap_mb"] == heap]
                if times:
                    medians[heap] = statistics.median(times)
            if medians:
                heap = min(medians, key=medians.get)
                best[c] = (medians[heap], heap)
        if len(best) == 2:
            print(f"| {workload} | {scale} | {best['ooc'][0]:.1f} s (H {best['ooc'][1]} MB) "
                  f"| {best['th'][0]:.1f} s (H {best['th'][1]} MB) | {best['ooc'][0] / best['th'][0]:.2f} |")


def main():
    p = Parser(description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    def common(q, heap_about="H: the heap of ooc, and H1 of th", many=()):
        add_options(q, scale="1", heap=None, cap=None, h2=None, timeout=1800, csv=str(DEFAULT_CSV),
                    required=("heap",), about={"heap": heap_about}, many=many,
                    unset={"cap": "uncapped", "h2": "4H, at least 2g"})
        q.add_argument("--graph", metavar="F",
                       help="a Graphalytics edge list instead of the generated graph (default: generated)")
        q.add_argument("--mem-heap", type=size, metavar="SIZE", help="the heap of mem (default: 4H)")
        q.add_argument("--h2-dir", metavar="DIR", help="where TeraHeap's H2 file goes (default: the run's directory)")
        q.add_argument("--jvm-options", metavar="O",
                       help="more JVM options for every run, space separated (e.g. -XX:HeapBaseMinAddress=8g)")
        q.add_argument("--agent-options", metavar="O",
                       help="options of teraheap-giraph.jar for th and thall, e.g. moveAt=70 (default: none)")

    q = sub.add_parser("run", help="one workload in one configuration", description=__doc__)
    q.add_argument("workload", choices=WORKLOADS, help="the workload")
    q.add_argument("config", choices=ALL_CONFIGS, help="the configuration (listed above)")
    common(q)
    q = sub.add_parser("suite", help="every workload in every configuration, repeated; then the figure",
                       description=__doc__)
    add_options(q, workloads=WORKLOADS, configs=CONFIGS, repeat=3,
                choices={"workloads": WORKLOADS, "configs": ALL_CONFIGS})
    common(q, "H: the heap of ooc, and H1 of th; several are swept, shuffled with the rest",
           many=("heap",))
    for name, text in (("check", "exit 1 unless every configuration gave the same checksum"),
                       ("table", "the medians as a Markdown table")):
        add_csv_input(sub.add_parser(name, help=text, description=__doc__), "a CSV that run or suite wrote")
    q = sub.add_parser("plot", help="the time breakdown per workload", description=__doc__)
    add_csv_input(q, "a CSV that run or suite wrote")
    add_options(q, heap=None, out=str(BUILD / "bench"), about={"heap": "the H whose runs to draw"},
                unset={"heap": "the smallest in the CSV"})
    args = p.parse_args()
    for f in (JAVA, BENCH_JAR, CLASSPATH, AGENT):
        if args.command in ("run", "suite") and not f.exists():
            die(f"{f} is missing: run make first")
    if args.command == "run":
        sys.exit(0 if run(args) else 1)
    if args.command == "suite":
        sys.exit(0 if suite(args) else 1)
    if args.command == "check":
        sys.exit(0 if check(args) else 1)
    if args.command == "plot":
        plot(args)
        return
    table(args)


if __name__ == "__main__":
    main()
