#!/usr/bin/python3
"""Where H2 may live: local disk, a local RAM disk, and remote block devices over NBD, with the
network's added latency as a knob (the storage study of the TeraHeap thesis, repeated here). Run as root; each backing is set
up and torn down by backing.sh around its measurements.

  study.py devices [--backings B ...] [--latencies US ...] [--runtime S] [--repeat N] [--csv F]
      fio on a file in each backing's H2 directory: 4 KiB random reads and writes and 1 MiB
      sequential reads and writes, direct I/O with libaio, at queue depths 1, 8 and 32 (the
      latency figures are QD1 4 KiB, as the thesis measured); one CSV row per job, the backings
      in a shuffled order in each repeat; table and figure give medians
  study.py workloads [--backings B ...] [--latencies US ...] [--repeat N]
                     [--giraph-workloads W ...] [--giraph-scale S] [--giraph-heap H] [--giraph-cap C]
                     [--spark-workloads W ...] [--spark-scale S] [--spark-heap H] [--spark-cap C]
                     [--spark-configs th|thd ...] [--csv F]
      TeraHeap runs of the Giraph and Spark suites (their bench.py run) with H2 on each backing,
      under the same DRAM cap; in each repeat every (backing, workload, configuration) runs
      once, in a shuffled order. Spark's configurations: th, TeraHeap's defaults with -Xmx
      --spark-heap (dynamic H1 under the cap since 2026-12-07); thf, H1 of --spark-heap without
      dynamic H1; thd, H1 sized at run time within the cap (-XX:+TeraHeapDynamicH1, no -Xmx). Each row is the suite's own row with
      the backing in front, and the CPU time of the NBD server and client
  study.py plot F          the figure for a devices or workloads CSV, in build/bench/
  study.py table F         the medians as a Markdown table

Backings: local, ram, nbd-disk, nbd-ram; the nbd ones once per --latencies value (microseconds
added to every request by the server). The workload study leaves ram out unless asked: a tmpfs's
pages are charged to the memory cgroup of whoever allocates them, the JVM, so under the DRAM cap a
local RAM disk takes the cap's own DRAM. Results go to benchmarks/remote/results/ by default.
"""

import argparse
import csv
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
from benchlib import Parser, add_csv_input, add_options, die, ensure_fio, fio, size  # noqa: E402

BACKING = HERE / "backing.sh"
RESULTS = HERE / "results"
BACKING_STATE = Path("/run/teraheap-backing")   # backing.sh's STATE: the NBD processes' pid files
BACKINGS = ["local", "ram", "nbd-disk", "nbd-ram"]
WORKLOAD_FIELDS = ["backing", "latency_us", "suite", "workload", "config", "status", "job_s",
                   "minor_gc_s", "major_gc_s", "h2_moved_mb", "peak_mb", "major_faults", "checksum",
                   "nbd_cpu_s"]
FIO_JOBS = [("randread", "4k"), ("randwrite", "4k"), ("read", "1m"), ("write", "1m")]
DEPTHS = [1, 8, 32]


def configurations(backings, latencies):
    """(backing, added latency in us) pairs; latency is None for local backings."""
    out = []
    for b in backings:
        if b.startswith("nbd-"):
            out += [(b, lat) for lat in latencies]
        else:
            out.append((b, None))
    return out


def label(backing, latency):
    return backing if latency is None else f"{backing}+{latency}us"


def up(backing, latency, size):
    cmd = [str(BACKING), "up", backing, "--size", size]
    if latency is not None:
        cmd += ["--latency-us", str(latency)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        die(f"cannot set up {label(backing, latency)}: {out.stderr.strip()}")
    return Path(out.stdout.strip().splitlines()[-1].split("=", 1)[1])


def down():
    subprocess.run([str(BACKING), "down"], check=True)


def devices(args):
    ensure_fio()
    fields = ["repeat", "backing", "latency_us", "rw", "bs", "iodepth", "mean_lat_us", "p99_lat_us",
              "mb_s", "iops"]
    csv_file = Path(args.csv)
    csv_file.parent.mkdir(parents=True, exist_ok=True)
    new = not csv_file.exists()
    configs = configurations(args.backings, args.latencies)
    with open(csv_file, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        if new:
            w.writeheader()
        for repeat in range(1, args.repeat + 1):
            random.shuffle(configs)
            for backing, latency in configs:
                directory = up(backing, latency, "4g")
                try:
                    for rw, bs in FIO_JOBS:
                        for depth in DEPTHS:
                            row = {"repeat": repeat, "backing": backing,
                                   "latency_us": latency if latency is not None else "",
                                   "rw": rw, "bs": bs, "iodepth": depth}
                            row.update(fio(directory, rw, bs, depth, args.runtime, args.file_size))
                            w.writerow(row)
                            f.flush()
                            print(f"[{repeat}/{args.repeat}] {label(backing, latency):16} {rw:9} {bs:3} "
                                  f"QD{depth:<3} {row['mean_lat_us']:>9} us  {row['mb_s']:>8} MB/s", flush=True)
                finally:
                    down()
    table(argparse.Namespace(csv=str(csv_file)))
    plot(argparse.Namespace(csv=str(csv_file)))


def device_medians(rows):
    """{backing label: {(rw, iodepth): {field: median}}} over the repeats."""
    runs = {}
    for r in rows:
        runs.setdefault(row_label(r), {}).setdefault((r["rw"], r["iodepth"]), []).append(r)
    return {name: {job: {k: statistics.median(float(r[k]) for r in rs)
                         for k in ("mean_lat_us", "p99_lat_us", "mb_s", "iops")}
                   for job, rs in runs[name].items()}
            for name in order(runs)}


def last_row(csv_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows[-1] if rows else None


def nbd_cpu_seconds():
    """CPU time the NBD server and client of the backing that is up have used (all their
    threads), or '' for a local backing. On one machine they share its cores with the job."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, seen = 0.0, False
    for name in ("nbdkit.pid", "nbdfuse.pid"):
        try:
            pid = (BACKING_STATE / name).read_text().strip()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks   # utime, stime
        seen = True
    return f"{total:.2f}" if seen else ""


def workloads(args):
    runs = []
    for backing, latency in configurations(args.backings, args.latencies):
        runs += [(backing, latency, "giraph", w, "th") for w in args.giraph_workloads]
        runs += [(backing, latency, "spark", w, c) for w in args.spark_workloads for c in args.spark_configs]
    if not runs:
        die("no workloads: give --giraph-workloads and/or --spark-workloads")
    csv_file = Path(args.csv)
    csv_file.parent.mkdir(parents=True, exist_ok=True)
    if csv_file.exists() and csv_file.stat().st_size:
        with open(csv_file, newline="") as f:
            if next(csv.reader(f)) != WORKLOAD_FIELDS:
                die(f"{csv_file} has other columns (an older study's rows): give another --csv")
    for repeat in range(args.repeat):
        random.shuffle(runs)
        for backing, latency, suite, workload, config in runs:
            directory = up(backing, latency, args.size)
            nbd_cpu = ""
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    one = Path(tmp) / "row.csv"
                    if suite == "giraph":
                        cmd = [str(REPO / "benchmarks/giraph/bench.py"), "run", workload, "th",
                               "--scale", args.giraph_scale, "--heap", args.giraph_heap,
                               "--cap", args.giraph_cap]
                    else:
                        cmd = [str(REPO / "benchmarks/spark/bench.py"), "run", workload, config,
                               "--scale", args.spark_scale, "--heap", args.spark_heap,
                               "--cap", args.spark_cap]
                    cmd += ["--h2-dir", str(directory), "--csv", str(one)]
                    print(f"[{repeat + 1}/{args.repeat}] {label(backing, latency)}: {suite} {workload} "
                          f"{config}", flush=True)
                    subprocess.run(cmd)
                    row = last_row(one) if one.exists() else None
                    nbd_cpu = nbd_cpu_seconds()
            finally:
                down()
            if row is None:
                row = {"status": "no-result"}
            out = {"backing": backing, "latency_us": latency if latency is not None else "",
                   "suite": suite, "workload": workload, "config": config, "status": row.get("status", ""),
                   "job_s": row.get("job_s") or row.get("total_s") or row.get("wall_s", ""),
                   "minor_gc_s": row.get("minor_gc_s", ""), "major_gc_s": row.get("major_gc_s", ""),
                   "h2_moved_mb": row.get("h2_moved_mb", ""), "peak_mb": row.get("peak_mb", ""),
                   "major_faults": row.get("major_faults", ""), "checksum": row.get("checksum", ""),
                   "nbd_cpu_s": nbd_cpu}
            new = not csv_file.exists()
            with open(csv_file, "a", newline="") as f:
                w = csv.DictWriter(f, fieldnames=WORKLOAD_FIELDS)
                if new:
                    w.writeheader()
                w.writerow(out)
    table(argparse.Namespace(csv=str(csv_file)))
    plot(argparse.Namespace(csv=str(csv_file)))


def workload_label(r):
    """Suite and workload; Spark's dynamic-H1 configuration named (rows from before the
    config column are TeraHeap's static one)."""
    name = f"{r['suite']} {r['workload']}"
    return name + " (dynamic H1)" if r.get("config") == "thd" else name


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def row_label(r):
    return label(r["backing"], r["latency_us"] or None)


def order(names):
    """Backing labels in a fixed order: local, ram, then each nbd kind by added latency."""
    def key(name):
        backing, _, lat = name.partition("+")
        return (BACKINGS.index(backing) if backing in BACKINGS else len(BACKINGS),
                int(lat[:-2]) if lat else -1)
    return sorted(names, key=key)


def table(args):
    rows = read(args.csv)
    if rows and "rw" in rows[0]:
        print("| backing | QD1 4K read lat (us) | QD1 4K write lat (us) | 4K rand read QD32 (MB/s) "
              "| 4K rand write QD32 (MB/s) | seq read QD8 (MB/s) | seq write QD8 (MB/s) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name, jobs in device_medians(rows).items():
            def get(rw, qd, key):
                v = jobs.get((rw, qd), {}).get(key)
                return "-" if v is None else f"{v:.1f}" if key.endswith("_us") else f"{v:.0f}"
            print(f"| {name} | {get('randread', '1', 'mean_lat_us')} | {get('randwrite', '1', 'mean_lat_us')} "
                  f"| {get('randread', '32', 'mb_s')} | {get('randwrite', '32', 'mb_s')} "
                  f"| {get('read', '8', 'mb_s')} | {get('write', '8', 'mb_s')} |")
        return
    cells, names = {}, order(set(row_label(r) for r in rows))
    for r in rows:
        name = row_label(r)
        if r["status"] == "ok":
            cells.setdefault(workload_label(r), {}).setdefault(name, []).append(r)
    print("| workload | " + " | ".join(names) + " | worst / local |")
    print("| --- |" + " --- |" * (len(names) + 1))
    for workload, per in sorted(cells.items()):
        med = {n: statistics.median(float(r["job_s"]) for r in v) for n, v in per.items()}
        worst = max((m for n, m in med.items() if n != "local"), default=None)
        ratio = f"{worst / med['local']:.2f}" if worst and "local" in med else "-"
        print(f"| {workload} | " + " | ".join(
            f"{med[n]:.1f} s ({len(per[n])})" if n in med else "-" for n in names) + f" | {ratio} |")
    extra = [(w, n, per[n]) for w, per in sorted(cells.items()) for n in names
             if n in per and any(r.get("nbd_cpu_s") for r in per[n])]
    if extra:
        print()
        print("| workload | backing | major faults | NBD server + client CPU |")
        print("| --- | --- | --- | --- |")
        for w, n, rs in extra:
            faults = statistics.median(float(r["major_faults"] or 0) for r in rs)
            cpu = statistics.median(float(r["nbd_cpu_s"]) for r in rs if r.get("nbd_cpu_s"))
            print(f"| {w} | {n} | {faults:.0f} | {cpu:.1f} s |")
        nbd = [r for per in cells.values() for rs in per.values() for r in rs if r.get("nbd_cpu_s")]
        if len(nbd) >= 3:
            cpu = [float(r["nbd_cpu_s"]) for r in nbd]
            job = [float(r["job_s"]) for r in nbd]
            faults = [float(r["major_faults"] or 0) for r in nbd]
            per_fault = statistics.linear_regression(faults, cpu).slope
            print(f"\nover the {len(nbd)} NBD runs: {per_fault * 1000:.1f} ms of NBD CPU per major fault")
            if len({(r["suite"], r["workload"]) for r in nbd}) == 1:   # job times of one workload only
                fit = statistics.linear_regression(cpu, job)
                print(f"job time = {fit.intercept:.1f} s + {fit.slope:.2f} x NBD CPU s "
                      f"(r = {statistics.correlation(cpu, job):.2f})")


def plot(args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = read(args.csv)
    if not rows:
        die(f"{args.csv} is empty")
    out = REPO / "build" / "bench" / Path(args.csv).with_suffix(".png").name
    out.parent.mkdir(parents=True, exist_ok=True)
    if "rw" in rows[0]:
        med = device_medians(rows)
        names = list(med)
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
        lat = {n: {rw: med[n].get((rw, "1"), {}).get("mean_lat_us", 0) for rw in ("randread", "randwrite")}
               for n in names}
        x = range(len(names))
        for k, rw in enumerate(["randread", "randwrite"]):
            axes[0].bar([i + (k - 0.5) * 0.4 for i in x], [lat[n].get(rw, 0) for n in names], 0.4, label=rw)
        axes[0].set_xticks(list(x))
        axes[0].set_xticklabels(names, rotation=30, ha="right")
        axes[0].set_ylabel("mean latency (us), 4 KiB, QD1")
        axes[0].set_yscale("log")
        axes[0].legend()
        colors = plt.get_cmap("tab10")
        for ax, (rws, bs) in zip(axes[1:], [(("randread", "randwrite"), "4k"), (("read", "write"), "1m")]):
            for c, n in enumerate(names):
                for rw, style in zip(rws, ("-", "--")):
                    pts = sorted((int(qd), v["mb_s"]) for (job_rw, qd), v in med[n].items() if job_rw == rw)
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o",
                                color=colors(c % 10), label=f"{n} {rw}")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("queue depth")
            ax.set_ylabel(f"MB/s, {bs} blocks")
            ax.legend(fontsize=6)
        fig.suptitle("H2 backings measured by fio (direct I/O, libaio; medians of the repeats)")
    else:
        cells = {}
        for r in rows:
            if r["status"] == "ok":
                cells.setdefault(workload_label(r), {}).setdefault(row_label(r), []).append(r)
        workloads_ = sorted(cells)
        names = order(set(row_label(r) for r in rows))
        fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(workloads_) * len(names) / 3), 4.5))
        width = 0.8 / max(1, len(names))
        for i, wl in enumerate(workloads_):
            base = cells[wl].get("local")
            base_t = statistics.median(float(r["job_s"]) for r in base) if base else None
            for j, n in enumerate(names):
                rs = cells[wl].get(n)
                if not rs or not base_t:
                    continue
                x = i + (j - (len(names) - 1) / 2) * width
                parts = [statistics.median(float(r[k] or 0) for r in rs) for k in ("minor_gc_s", "major_gc_s")]
                total = statistics.median(float(r["job_s"]) for r in rs)
                other = total - sum(parts)
                y = 0.0
                for h, color in zip([other] + parts, ["#4c72b0", "#dd8452", "#c44e52"]):
                    ax.bar(x, h / base_t, width * 0.9, bottom=y, color=color)
                    y += h / base_t
                ax.text(x, y + 0.02, n, rotation=90, fontsize=6, ha="center", va="bottom")
        ax.set_xticks(range(len(workloads_)))
        ax.set_xticklabels(workloads_)
        ax.set_ylabel("time relative to H2 on the local disk")
        ax.legend(["other", "minor GC", "major GC"], fontsize=7)
        fig.suptitle("TeraHeap with H2 on each backing, same DRAM cap (medians)")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"figure: {out}")


def add_latencies(parser):
    parser.add_argument("--latencies", nargs="+", type=int, default=[0, 50, 200], metavar="US",
                        help="microseconds the NBD server adds to every request, one nbd backing each "
                             "(default: 0 50 200)")


def main():
    p = Parser(description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    q = sub.add_parser("devices", help="fio on each backing", description=__doc__)
    q.add_argument("--backings", nargs="+", default=BACKINGS, choices=BACKINGS, metavar="B",
                   help=f"the backings, of: {' '.join(BACKINGS)} (default: all)")
    add_latencies(q)
    q.add_argument("--runtime", type=int, default=3, metavar="SECONDS", help="seconds per fio job (default: 3)")
    q.add_argument("--file-size", type=size, default="1g", metavar="SIZE",
                   help="fio's file in each backing (default: 1g)")
    add_options(q, repeat=3, csv=str(RESULTS / "devices.csv"))
    q = sub.add_parser("workloads", help="the Giraph and Spark suites with H2 on each backing",
                       description=__doc__)
    # Not ram by default: a tmpfs's pages are charged to the memory cgroup of the process that
    # allocates them, the JVM here, so under the cap a local RAM disk is the cap's own DRAM.
    q.add_argument("--backings", nargs="+", default=["local", "nbd-disk", "nbd-ram"], choices=BACKINGS,
                   metavar="B", help=f"the backings, of: {' '.join(BACKINGS)} (default: local nbd-disk nbd-ram)")
    add_latencies(q)
    q.add_argument("--size", type=size, default="8g", help="each backing's size; H2 must fit (default: 8g)")
    add_options(q, repeat=3, csv=str(RESULTS / "workloads.csv"))
    # The two suites' options, named alike: --giraph-* and --spark-*.
    add_options(q, "giraph", workloads=[], scale="4", heap="512m", cap="1536m",
                about={"workloads": "the Giraph workloads to run"})
    add_options(q, "spark", workloads=[], configs=["th"], scale="10", heap="1g", cap="2g",
                about={"workloads": "the Spark workloads to run",
                       "configs": "the Spark configurations (th: the defaults, -Xmx --spark-heap; "
                                  "thf: the same without dynamic H1; thd: -XX:+TeraHeapDynamicH1 "
                                  "given only the cap)"},
                choices={"configs": ["th", "thf", "thd"]})
    for name, text in (("plot", "the figure for a devices or workloads CSV, in build/bench/"),
                       ("table", "the medians as a Markdown table")):
        add_csv_input(sub.add_parser(name, help=text, description=__doc__), "a CSV that devices or workloads wrote")
    args = p.parse_args()
    if args.command in ("devices", "workloads") and subprocess.run(["id", "-u"], capture_output=True,
                                                                    text=True).stdout.strip() != "0":
        die("run as root: backing.sh mounts file systems and makes a network namespace")
    {"devices": devices, "workloads": workloads, "plot": plot, "table": table}[args.command](args)


if __name__ == "__main__":
    main()
