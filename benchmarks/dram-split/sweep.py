#!/usr/bin/python3
"""One DRAM cap, divided between H1 and H2's page cache: static splits against -XX:+TeraHeapDynamicH1
(the division the TeraCache paper calls DR1/DR2). Run as root: the cap is a memory cgroup.

  sweep.py run [--workloads W ...] [--scale S] [--cap C] [--shares P ...] [--repeat N] [--csv F]
      per workload, TeraHeap with H1 fixed at each share of the cap (bench.py run WORKLOAD thf) and
      TeraHeap given only the cap (bench.py run WORKLOAD thd); in each repeat every
      (workload, configuration) pair runs once, in a shuffled order. Rows are bench.py's own
      rows with the share in front (0 for the dynamic run); by default the ten workloads, H1 at
      40/50/70/90% of 1280 MB, 3 repeats, into build/bench/dram-split.csv
  sweep.py table [F ...] per workload: the median time of each static share and of the dynamic
                        run, and the dynamic run against the best and worst static share
  sweep.py plot [F ...]  time against H1's share of the cap, the dynamic run as a line
                        (build/bench/dram-split.png)

Every configuration runs the same Spark workload (benchmarks/spark) under the same cap, with
H2 the same size (4 GB) on the local disk. table and plot read the recorded runs (RECORDED_CSVS
below: each (workload, share) from the last file that has it) unless given other CSVs.
"""

import csv
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
from benchlib import Parser, add_csv_input, add_options, die, mb, size_bytes  # noqa: E402

SPARK_BENCH = REPO / "benchmarks" / "spark" / "bench.py"
# The recorded sweeps behind docs/results/dram-division.md, oldest policy first: each cell of
# its table comes from the last of these that has it.
RECORDED_CSVS = [HERE / "results" / f"dram-split-{name}.csv" for name in
                 ("no-whole-h2-stop-eden-grows", "no-whole-h2-stop", "whole-h2", "whole-h2-rest", "tc-young",
                  "svdpp", "dynamic-vs-h1-40")]
RUN_CSV = REPO / "build" / "bench" / "dram-split.csv"


def run(args):
    cap = size_bytes(args.cap)
    pairs = [(w, s) for w in args.workloads for s in args.shares + [0]]
    out = Path(args.csv)
    out.parent.mkdir(parents=True, exist_ok=True)
    for repeat in range(1, args.repeat + 1):
        random.shuffle(pairs)
        for workload, share in pairs:
            with tempfile.NamedTemporaryFile(suffix=".csv") as one:
                cmd = [sys.executable, str(SPARK_BENCH), "run", workload, "thd" if share == 0 else "thf",
                       "--scale", args.scale, "--cap", f"{mb(cap)}m", "--h2", "4g",
                       "--heap", f"{mb(cap) * share // 100}m" if share else "1g",
                       "--timeout", str(args.timeout), "--csv", one.name]
                print(f"[sweep] repeat {repeat}: {workload} "
                      f"{'dynamic' if share == 0 else f'H1 {share}%'} of {mb(cap)} MB", flush=True)
                subprocess.run(cmd, check=False)
                rows = list(csv.DictReader(open(one.name)))
            for row in rows:
                row = {"share": share, "repeat": repeat, **row}
                new = not out.exists() or out.stat().st_size == 0
                with open(out, "a", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=list(row))
                    if new:
                        w.writeheader()
                    w.writerow(row)
                print(f"[sweep]   {row['status']} {row['wall_s']} s", flush=True)


def medians(csv_files):
    """{workload: {share: (median seconds, runs ok, runs, statuses of the failed runs)}}. A
    (workload, share) cell in several files is taken from the last one that has it: a later
    sweep reran it (after a change that only some workloads take part in, or the dynamic runs
    alone)."""
    cells = {}
    for csv_file in csv_files:
        in_file = {}
        for row in csv.DictReader(open(csv_file)):
            in_file.setdefault((row["workload"], row["share"]), []).append(row)
        cells.update(in_file)
    table = {}
    for row in (r for rows in cells.values() for r in rows):
        cell = table.setdefault(row["workload"], {}).setdefault(int(row["share"]), [[], 0, set()])
        cell[1] += 1
        if row["status"] == "ok":
            cell[0].append(float(row["wall_s"]))
        else:
            cell[2].add(row["status"])
    return {w: {s: (statistics.median(v[0]) if v[0] else None, len(v[0]), v[1], sorted(v[2]))
                for s, v in shares.items()} for w, shares in table.items()}


def table(args):
    data = medians(args.csv)
    shares = sorted({s for w in data.values() for s in w if s})
    print("| workload | " + " | ".join(f"H1 {s}%" for s in shares)
          + " | dynamic | vs best static | vs worst static |")
    print("| --- " * (len(shares) + 4) + "|")
    for workload, cells in sorted(data.items()):
        def show(s):
            t, ok, n, failures = cells.get(s, (None, 0, 0, []))
            if t is None:
                return "/".join(failures) + f" ({n}/{n})" if n else "-"
            return f"{t:.1f} s" + ("" if ok == n else f" ({n - ok} of {n} {'/'.join(failures)})")
        static = [cells[s][0] for s in shares if s in cells and cells[s][0] is not None]
        dyn = cells.get(0, (None,))[0]
        best = f"{dyn / min(static):.2f}x" if dyn and static else "-"
        # A split that never finished is the worst of all.
        fails = any(s in cells and cells[s][0] is None for s in shares)
        worst = "fails there" if dyn and fails else (f"{dyn / max(static):.2f}x" if dyn and static else "-")
        print(f"| {workload} | " + " | ".join(show(s) for s in shares) + f" | {show(0)} | {best} | {worst} |")


def plot(args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    data = medians(args.csv)
    columns = min(3, len(data))
    rows = (len(data) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(4 * columns, 3.2 * rows), squeeze=False)
    for ax in axes.flat[len(data):]:
        ax.set_visible(False)
    for ax, (workload, cells) in zip(axes.flat, sorted(data.items())):
        shares = sorted(s for s in cells if s and cells[s][0] is not None)
        ax.plot(shares, [cells[s][0] for s in shares], "o-", label="static split")
        if cells.get(0, (None,))[0]:
            ax.axhline(cells[0][0], color="tab:red", linestyle="--", label="dynamic (cap only)")
        ax.set_title(workload)
        ax.set_xlabel("H1 (-Xmx) as % of the cap")
        ax.set_ylabel("seconds")
        ax.set_ylim(bottom=0)
    axes[0][0].legend(fontsize="small")
    fig.tight_layout()
    out = REPO / "build" / "bench" / "dram-split.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    print(out)


def main():
    p = Parser(description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="the sweep, appending to --csv", description=__doc__)
    add_options(r, workloads=["pr", "cc", "sssp", "svdpp", "tc", "linr", "logr", "svm", "nb", "phases"],
                scale="20", cap="1280m", repeat=3, timeout=420, csv=str(RUN_CSV))
    # Spark refuses a heap under 450 MB: H1 at 30% of the default cap does not start.
    r.add_argument("--shares", nargs="+", type=int, default=[40, 50, 70, 90], metavar="P",
                   help="H1's static shares of the cap, in percent (default: 40 50 70 90)")
    for name, text in (("table", "per workload, the medians of each share and of the dynamic run"),
                       ("plot", "time against H1's share of the cap (build/bench/dram-split.png)")):
        add_csv_input(sub.add_parser(name, help=text, description=__doc__),
                      "CSVs that run wrote; a (workload, share) from the last that has it", nargs="*",
                      default=[str(p) for p in RECORDED_CSVS], said="the recorded sweeps of docs/results/dram-division.md")
    args = p.parse_args()
    if args.command == "run":
        if any(s <= 0 or s >= 100 for s in args.shares):
            die("--shares are percents between 1 and 99")
        run(args)
    else:
        {"table": table, "plot": plot}[args.command](args)


if __name__ == "__main__":
    main()
