#!/usr/bin/python3
"""The hybrid DRAM/NVM RDD cache's paper (ISMM '19) reproduced with its own method: the emulated
NVM tier, uncapped, MEMORY_ONLY, spark.memory.fraction 0.9, against the same heap all in DRAM.

  reproduce.py run --figure 7|8|10|11 [--workloads pr cc pregel] [--scale 5] [--repeat 3]
                   [--heap 1g] [--csv build/bench/hybrid.csv]
      each repeat runs every (workload, setting) once, in a new random order (bench.py run, page
      cache dropped before each run). The settings of each figure:
        7   DRAM an eighth of the pool, NVM bandwidth 1/4, 1/8 and 1/16 of DRAM's: flat and layered
        8   NVM bandwidth 1/8, DRAM 1/4, 1/8 and 1/16: flat and layered (with Fig. 9 and Table 3:
            where blocks were placed, and the share of migrations made asynchronously)
        10  NVM bandwidth 1/4, DRAM 1/4, 1/8 and 1/16: layered + AMP (with Table 4: synchronous
            against asynchronous migrations)
        11  opportunistic eviction: spark.memory.fraction 0.2, MEMORY_AND_DISK and
            MEMORY_AND_DISK_SER, NVM bandwidth 1/4, window multipliers 1, 2, 4, 8 and 16 against
            none
      and, in every figure, the baseline: Spark-SD at the same heap and level, no agent.
  reproduce.py table F
      per workload and setting: the median time, its ratio to the baseline, and the agent's
      figures (blocks placed in DRAM and NVM, migrations synchronous and asynchronous)

The heap must hold the whole cache (D) in its storage pool for figures 7 to 10, as in the paper;
the default, 1 GB at scale 5, does for pr, cc and pregel.
"""

import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent / "spark" / "bench.py"
sys.path.insert(0, str(HERE.parent))
from benchlib import bench_run, check_runs, run_or_table, run_shuffled  # noqa: E402

# (name, bench.py configuration, agent options, storage level, memory fraction)
BASELINE = "DRAM only"


def settings(figure):
    s = []
    if figure == "7":
        s = [(f"{mode} bw 1/{bw}", config, f"dram=0.125,bandwidth={1 / bw}", "MEMORY_ONLY", 0.9)
             for mode, config in (("flat", "hyf"), ("layered", "hyl")) for bw in (4, 8, 16)]
    elif figure == "8":
        s = [(f"{mode} DRAM 1/{d}", config, f"dram={1 / d},bandwidth=0.125", "MEMORY_ONLY", 0.9)
             for mode, config in (("flat", "hyf"), ("layered", "hyl")) for d in (4, 8, 16)]
    elif figure == "10":
        s = [(f"layered+AMP DRAM 1/{d}", "hyla", f"dram={1 / d},bandwidth=0.25", "MEMORY_ONLY", 0.9)
             for d in (4, 8, 16)]
    if figure in ("7", "8", "10"):
        return [(BASELINE, "sd", "", "MEMORY_ONLY", 0.9)] + s
    levels = ("MEMORY_AND_DISK", "MEMORY_AND_DISK_SER")
    base = [(f"{BASELINE} {level}", "sd", "", level, 0.2) for level in levels]
    return base + [(f"flat {level} OE {m}" if m else f"flat {level} no OE", "hyf",
                    "dram=0.125,bandwidth=0.25" + (f",oe={m}" if m else ""), level, 0.2)
                   for level in levels for m in (0, 1, 2, 4, 8, 16)]


def run(args):
    by_name = {s[0]: s for s in settings(args.figure)}

    def one(args, workload, name, runs_csv):
        _, config, options, level, fraction = by_name[name]
        more = ["--storage", level, "--memory-fraction", str(fraction)]
        if options:
            more += ["--hybrid-options", options]
        return dict(figure=args.figure, setting=name, **bench_run(BENCH, args, workload, config, runs_csv, more=more))

    for rep, workload, name, row in run_shuffled(args, list(by_name), one):
        print(f"repeat {rep}: {workload} {name}: {row['status']}, {row['wall_s']} s, placed in NVM "
              f"{row.get('placed_nvm_blocks') or '-'}, migrations sync {row.get('sync_blocks') or '-'} "
              f"async {row.get('async_blocks') or '-'}", flush=True)
    check_runs(BENCH, args.csv)


def table(args):
    import csv
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    print("| workload | setting | time (s) | / DRAM only | placed DRAM / NVM (blocks) "
          "| migrations sync / async | asynchronous share |")
    print("| --- " * 7 + "|")

    def median(rs, key):
        values = [float(r[key]) for r in rs if r.get(key) not in (None, "", "-")]
        return statistics.median(values) if values else None

    for workload in dict.fromkeys(r["workload"] for r in rows):
        rs = [r for r in rows if r["workload"] == workload and r["status"] == "ok"]
        for name in dict.fromkeys(r["setting"] for r in rows):
            mine = [r for r in rs if r["setting"] == name]
            if not mine:
                continue
            level = mine[0]["storage"]
            base = median([r for r in rs if r["setting"].startswith(BASELINE) and r["storage"] == level], "wall_s")
            t = median(mine, "wall_s")
            ratio = f"{t / base:.2f}" if base else "-"
            placed = "-" if mine[0]["config"] == "sd" else \
                f"{median(mine, 'placed_dram_blocks'):.0f} / {median(mine, 'placed_nvm_blocks'):.0f}"
            moved = "-" if mine[0]["config"] == "sd" else \
                f"{median(mine, 'sync_blocks'):.0f} / {median(mine, 'async_blocks'):.0f}"
            share = median(mine, "async_share")
            print(f"| {workload} | {name} | {t:.1f} ({len(mine)}) | {ratio} | {placed} | {moved} | "
                  f"{'-' if share is None else f'{share:.2f}'} |")


def extra(parser):
    parser.add_argument("--figure", required=True, choices=["7", "8", "10", "11"],
                        help="the paper's figure whose settings to run (see above)")


if __name__ == "__main__":
    run_or_table(__doc__, run, table, extra, workloads=["pr", "cc", "pregel"], scale="5", repeat=3,
                 heap="1g", cap=None, timeout=1800, csv="build/bench/hybrid.csv",
                 unset={"cap": "uncapped, as in the paper"})
