#!/usr/bin/env python3
"""Can a JVM keep part of H2 in the page cache across the passes of a scan larger than the cache?

A program that loops over more of H2 than its page cache holds reads all of H2 again in every pass:
the kernel's LRU evicts each page before the loop comes back to it. Keeping a fixed part cached
would save that part's reads in every pass. This study runs loop.c (a loop over a file mapped
shared, as H2 is) under a memory cgroup with each way the kernel offers to keep the file's first
part resident, and reports what each pass reads from the disk.

  benchmarks/page-cache/study.py                     # 2400 MB file, 500 MB cap, about 5 minutes
  benchmarks/page-cache/study.py --kept 150 250 350 --cap 500m --repeat 3

Needs root (memory and blkio cgroups v1, dropping the page cache) and gcc.
"""

import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchlib import CappedRun, Parser, add_options, die, drop_page_cache, key_values, mb, size_bytes  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "page-cache"
STRATEGIES = ["lru", "sequential", "touch", "lock", "evict-behind"]


def build():
    OUT.mkdir(parents=True, exist_ok=True)
    binary = OUT / "loop"
    subprocess.run(["gcc", "-O2", "-Wall", "-pthread", "-o", str(binary),
                    str(Path(__file__).with_name("loop.c"))], check=True)
    return binary


def data_file(size_mb):
    path = OUT / "loop.data"
    if not path.exists() or path.stat().st_size != size_mb << 20:
        block = os.urandom(16 << 20)
        with open(path, "wb") as f:
            for _ in range(size_mb // 16):
                f.write(block)
        os.sync()
    return path


def main():
    p = Parser(description=__doc__)
    p.add_argument("--size", type=int, default=2400, metavar="MB", help="MB looped over (default: 2400)")
    p.add_argument("--kept", type=int, nargs="+", default=[150, 250, 350], metavar="MB",
                   help="MB to keep resident, one run of each strategy each (default: 150 250 350)")
    p.add_argument("--passes", type=int, default=5, metavar="N", help="passes over the file per run (default: 5)")
    p.add_argument("--strategies", nargs="+", default=STRATEGIES, choices=STRATEGIES, metavar="S",
                   help=f"the ways to keep part resident, of: {' '.join(STRATEGIES)} (default: all; "
                        "lru, keeping nothing, always runs)")
    add_options(p, cap="500m", repeat=3, about={"cap": "the memory cgroup over the loop and its page cache"})
    args = p.parse_args()
    cap = size_bytes(args.cap)
    if args.passes < 2:
        die("--passes must be at least 2: the first pass reads the whole file whatever is kept")
    if os.geteuid() != 0:
        die("needs root: memory and blkio cgroups, and dropping the page cache between runs")
    binary, data = build(), data_file(args.size)
    cells = [("lru", 0)] + [(s, k) for s in args.strategies if s != "lru" for k in args.kept]
    results = {c: [] for c in cells}
    runs = OUT / "runs"
    runs.mkdir(exist_ok=True)
    for r in range(args.repeat):
        order = cells[:]
        random.shuffle(order)
        for strategy, kept in order:
            drop_page_cache()
            run_dir = runs / f"{strategy}-{kept}-{r}"
            run_dir.mkdir(exist_ok=True)
            cmd = [str(binary), str(data), str(args.size), str(kept), str(args.passes), strategy]
            run = CappedRun(cmd, run_dir, run_dir / "out.log", cap, 600)
            if run.code != 0 or not run.read_mb:
                die(f"{' '.join(cmd)} failed ({run.status(True)}): see {run_dir}/out.log")
            seconds = [float(key_values(l)["seconds"]) for l in run.stdout.splitlines()
                       if l.startswith("PASS")]
            # The first pass reads the whole file in any case; the others show what stays.
            per_pass = (int(run.read_mb) - args.size) / (args.passes - 1)
            results[(strategy, kept)].append((per_pass, statistics.median(seconds[1:])))
            print(f"{strategy:12} kept {kept:4} MB: {per_pass:6.0f} MB read per pass, "
                  f"{statistics.median(seconds[1:]):.2f} s per pass", flush=True)
    base = statistics.median(x[0] for x in results[("lru", 0)])
    print(f"\n{args.size} MB looped over {args.passes} times under a {mb(cap)} MB memory cgroup, "
          f"medians of {args.repeat}; MB read per pass after the first:\n")
    print("| strategy | kept (MB) | read per pass (MB) | saved per pass (MB) | s per pass |")
    print("| --- | --- | --- | --- | --- |")
    for cell in cells:
        read = statistics.median(x[0] for x in results[cell])
        s = statistics.median(x[1] for x in results[cell])
        print(f"| {cell[0]} | {cell[1]} | {read:.0f} | {base - read:.0f} | {s:.2f} |")


if __name__ == "__main__":
    main()
