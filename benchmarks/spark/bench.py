#!/usr/bin/python3
"""The Spark benchmark suite: Spark's own caches against TeraHeap, at the same DRAM cap.

  bench.py run WORKLOAD CONFIG --scale S --heap H [--cap C] [--csv F]
      one workload in one configuration; appends a row to the CSV (default build/bench/spark.csv)
  bench.py check F
      exits 1 unless, per workload and scale, every configuration gave the same checksum
  bench.py space F
      H2's space against the cache, per TeraHeap run of F made with --gc-each-job, as a Markdown
      table; exits 1 unless every such run stayed within 2x the cache plus a region per cached RDD
      after every job, and came back to under 1 MB once every RDD was dropped
  bench.py footprint [--workloads ...] [--scale S]
      measures each workload's cached footprint D (a MEMORY_ONLY run in a heap that holds all of
      it, uncapped) and records it in benchmarks/spark/results/footprint.csv
  bench.py suite [--workloads ...] [--scale S] [--repeat N] [--heap-fraction X] [--cap-extra C]
                 [--heap H [H ...]] [--cap C|none] [--device-rate]
      runs every configuration at H = X * D (or at each fixed --heap: a sweep) under the cap
      H + C (or the one --cap), in a new random order in each repeat, then draws the figures
      (bench.py plot, the smallest H); D comes from footprint.csv, measured first where it is
      missing. table prints a line per workload, cap and H. --device-rate measures the disk's
      sequential read rate with fio before each repeat; with th and thu, table then prints
      TeraHeap against its bound: the larger of its uncapped time and what it read from the disk
      at that rate
  bench.py plot F [--out DIR]
      breakdown bars per workload, normalized to Spark-SD, like the papers' figures
  bench.py table F
      the medians per workload and configuration, as a Markdown table; TeraHeap's ratio is
      against the best stock configuration of the CSV (the fastest of sd, g1, ser, serg1)

Configurations, all on build/jdk (TeraHeap off unless named) with Kryo, local[2]:
  sd  Spark-SD: Parallel GC, heap H, MEMORY_AND_DISK (deserialized in memory, spilled serialized)
  g1  the same with G1
  ser Spark-SD, serialized: Parallel GC, heap H, MEMORY_AND_DISK_SER (the cache kept serialized
      with Kryo in memory too, as Spark's tuning guide advises under memory pressure)
  serg1  the same with G1
  mo  Spark-MO: Parallel GC, MEMORY_ONLY, one heap whose storage pool holds all of D (--mo-heap;
      the suite sizes it from D), mapped over a file on the disk with -XX:AllocateHeapAt (the
      papers' single heap over NVM); where that heap does not fit under the cap the suite records
      the row as "exceeds-cap" instead of timing a run that pages its heap
  th  TeraHeap with its defaults: -Xmx H, H2 a file on the disk, build/teraheap-spark.jar,
      MEMORY_AND_DISK. Under a cap, H1 is sized at run time up to H (dynamic H1 is on by default
      where a memory limit is known, since 2026-12-07; rows recorded before had H1 = H, as thf)
  thf TeraHeap without dynamic H1 (-XX:-TeraHeapDynamicH1): H1 sized by the collector up to H, as
      a stock JVM's heap
  thd TeraHeap with -XX:+TeraHeapDynamicH1: no -Xmx; the JVM divides the cap between H1 and H2's
      page cache itself (H is ignored)
  thdx TeraHeap with -XX:+TeraHeapDynamicH1 and -Xmx H: H1 sized at run time under the cap, never
      above H (what dynamic H1 on by default would give a user who sets the heap)
  thu TeraHeap as th but without the cap (--cap is ignored): H2 stays in the page cache, so nothing
      is read back from the disk. Not a comparison at the same DRAM but a ceiling: how fast th
      could be if H2's reads cost nothing
  thev TeraHeap as th, with the agent's adopt=evicted: a block goes to H2 only when Spark would
      evict it from a full H1 storage pool (th: every block, once stored)
  thg1 TeraHeap as th, on G1 (experimental: -XX:+TeraHeapG1InProgress, docs/g1.md); blocks move
      at the young pause after they are cached, as far as they are in its collection set
  thg1d TeraHeap on G1 as thg1, sizing H1 itself as thd does (no -Xmx; H is ignored)
  hyf, hyl, hyla  the hybrid DRAM/NVM RDD cache (build/hybrid-spark.jar, docs/hybrid.md) in its
      flat, layered and layered + AMP modes: Parallel GC, heap H, MEMORY_AND_DISK, the emulated NVM
      tier; --hybrid-options adds agent options (e.g. dram=0.0625,bandwidth=0.25,oe=4)
  hyff, hylf  the hybrid cache, flat and layered, with its file tier in TeraHeap's place: a file
      as large as H2 in H2's directory, DRAM all of Spark's storage pool (heap H)
run and suite take --storage LEVEL (every configuration at that level, e.g. MEMORY_ONLY) and
--memory-fraction F (spark.memory.fraction; the paper of the hybrid cache runs 0.9).
run and suite take --spark VERSION: another Spark release than make's, built first by
benchmarks/spark/build-release.sh VERSION (TERAHEAP_SPARK_VERSION=VERSION does the same).
The cap is a memory cgroup (v1) over the JVM and its page cache; it needs root, and is skipped
with a warning without it. Sizes take k/m/g suffixes.
"""

import argparse
import csv
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchlib import (CappedRun, Parser, add_csv_input, add_options, die, drop_page_cache,  # noqa: E402
                      gc_times, h2_peak_bytes, key_values, mb, sequential_read_mbps, size, size_bytes)

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "build"
# TERAHEAP_BENCH_JDK runs another build of the JDK (compare-jdks.py sets it).
JDK = Path(os.environ.get("TERAHEAP_BENCH_JDK") or BUILD / "jdk")
JAVA = JDK / "bin" / "java"
JFR = JDK / "bin" / "jfr"
AGENT = BUILD / "teraheap-spark.jar"
# --spark or TERAHEAP_SPARK_VERSION runs another Spark release, built by build-release.sh.
SPARK_VERSION = BENCH_JAR = CLASSPATH = None


def use_spark(version):
    """Runs the release built into build/spark-VERSION/, or make's release (build/) for ''."""
    global SPARK_VERSION, BENCH_JAR, CLASSPATH
    SPARK_VERSION = version
    spark_build = BUILD / f"spark-{version}" if version else BUILD
    BENCH_JAR = spark_build / "teraheap-bench-spark.jar"
    CLASSPATH = spark_build / "spark-classpath.txt"
    if version:
        os.environ["TERAHEAP_SPARK_VERSION"] = version   # for the runs a suite starts


use_spark(os.environ.get("TERAHEAP_SPARK_VERSION", ""))
JAVA_OPTIONS = Path(__file__).resolve().parent / "java-options"
WORK = Path(os.environ.get("TERAHEAP_BENCH_DIR",
                           os.path.expanduser(os.environ.get("TERAHEAP_WORK", "~/.cache/teraheap"))
                           + "/bench"))
DEFAULT_CSV = BUILD / "bench" / "spark.csv"
FOOTPRINTS = Path(__file__).resolve().parent / "results" / "footprint.csv"
FOOTPRINT_FIELDS = ["workload", "scale", "d_mb", "measured", "heap_mb", "wall_s"]

# Spark's unified memory: the storage pool may reach (heap - 300 MB) * spark.memory.fraction.
SPARK_RESERVED = 300 << 20
SPARK_MEMORY_FRACTION = 0.6
# Room beyond D in Spark-MO's pool (execution memory, blocks being unrolled), and the JVM's own
# memory outside its heap that the cap must hold as well.
MO_POOL_HEADROOM = 1.25
JVM_OUTSIDE_HEAP = 400 << 20

WORKLOADS = ["pr", "cc", "sssp", "svdpp", "tc", "linr", "logr", "svm", "nb", "rl", "sql", "pregel"]
# Not in the suite by default: a job whose stages alternate between scanning the cache and building
# a large in-memory state (benchmarks/dram-split runs it: it is made for run-time DRAM division).
EXTRA_WORKLOADS = ["phases"]
CONFIGS = ["sd", "g1", "ser", "serg1", "mo", "th"]
# Spark as its users run it, at the same heap and cap as TeraHeap: collector and storage level.
STOCK = {"sd": ("-XX:+UseParallelGC", "MEMORY_AND_DISK"), "g1": ("-XX:+UseG1GC", "MEMORY_AND_DISK"),
         "ser": ("-XX:+UseParallelGC", "MEMORY_AND_DISK_SER"), "serg1": ("-XX:+UseG1GC", "MEMORY_AND_DISK_SER")}
# Not in the suite by default: TeraHeap sizing H1 itself (benchmarks/dram-split compares it), and
# TeraHeap uncapped, the ceiling of what H2's reads can cost (`table` prints it against the rest).
EXTRA_CONFIGS = ["thf", "thd", "thdx", "thu", "thev", "thg1", "thg1d", "hyf", "hyl", "hyla", "hyff", "hylf"]
# The configurations that run TeraHeap (thev: the agent's adopt=evicted, blocks taken into H2 only
# when Spark would evict them from a full H1 storage pool; thg1: TeraHeap on G1, experimental).
TERAHEAP_CONFIGS = ("th", "thf", "thd", "thdx", "thu", "thev", "thg1", "thg1d")
HYBRID_AGENT = BUILD / "hybrid-spark.jar"
HYBRID_MODES = {"hyf": "flat", "hyl": "layered", "hyla": "layered-amp"}
HYBRID_FILE_MODES = {"hyff": "flat", "hylf": "layered"}
CONFIG_NAMES = {"sd": "Spark-SD", "g1": "Spark-SD (G1)", "ser": "Spark-SD SER",
                "serg1": "Spark-SD SER (G1)", "mo": "Spark-MO", "th": "TeraHeap",
                "thf": "TeraHeap, H1 fixed", "thd": "TeraHeap, dynamic H1",
                "thdx": "TeraHeap, dynamic H1 under H", "thu": "TeraHeap, uncapped",
                "thev": "TeraHeap, H2 at eviction", "thg1": "TeraHeap (G1)",
                "thg1d": "TeraHeap (G1), dynamic H1", "hyf": "Hybrid, flat",
                "hyl": "Hybrid, layered", "hyla": "Hybrid, layered + AMP",
                "hyff": "Hybrid, flat, file", "hylf": "Hybrid, layered, file"}
FIELDS = ["time", "workload", "config", "scale", "heap_mb", "cap_mb", "h2_mb", "status",
          "wall_s", "other_s", "sd_s", "minor_gc_s", "major_gc_s", "h2_moved_mb", "cached_mb",
          "peak_mb", "checksum", "tolerance", "log", "major_faults", "read_mb",
          "h2_peak_mb", "h2_cached_at_peak_mb", "h2_worst_excess_mb", "h2_samples",
          "h2_dropped_mb", "storage", "hybrid_options", "placed_dram_blocks", "placed_nvm_blocks",
          "sync_blocks", "async_blocks", "async_share", "nvm_wait_s", "file_moved_blocks", "file_reads",
          "file_full", "device_read_mbps"]
# The hybrid cache agent's figures a row keeps (from its summary line).
HYBRID_FIELDS = FIELDS[FIELDS.index("placed_dram_blocks"):FIELDS.index("file_full") + 1]

# Stack frames that are serialization or deserialization (Kryo's read and write paths, and
# Spark's streams around them), as the papers' profiler attributed S/D time.
SD_FRAME = re.compile(r"com\.esotericsoftware\.kryo\.|org\.apache\.spark\.serializer\.Kryo"
                      r"|org\.apache\.spark\.serializer\.JavaSerializ|java\.io\.Object(In|Out)putStream")


def java_command(workload, config, scale, heap, h2, mo_heap, run_dir, profile, extra, h2_dir=None,
                 h2_region=None, storage_level=None, memory_fraction=None, hybrid_options=None):
    for path in (JAVA, AGENT, BENCH_JAR, CLASSPATH):
        if not path.exists():
            die(f"{path} is missing: run make first"
                + (f" and benchmarks/spark/build-release.sh {SPARK_VERSION}" if SPARK_VERSION else ""))
    options = [l.strip() for l in JAVA_OPTIONS.read_text().splitlines()
               if l.strip() and not l.startswith("#")]
    cmd = [str(JAVA)] + options
    storage = "MEMORY_AND_DISK"
    if config in STOCK:
        collector, storage = STOCK[config]
        cmd += [collector, f"-Xmx{mb(heap)}m"]
    elif config == "mo":
        storage = "MEMORY_ONLY"
        cmd += ["-XX:+UseParallelGC", f"-Xms{mb(mo_heap)}m", f"-Xmx{mb(mo_heap)}m",
                f"-XX:AllocateHeapAt={run_dir}"]
    elif config in ("th", "thf", "thu", "thev", "thg1"):
        if config == "thf":
            cmd += ["-XX:-TeraHeapDynamicH1"]
        if config == "thg1":
            cmd += ["-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress"]
        cmd += ["-XX:+EnableTeraHeap", f"-Xmx{mb(heap)}m", f"-XX:TeraHeapSize={mb(h2)}m",
                f"-XX:TeraHeapPath={h2_dir or run_dir}",
                f"-javaagent:{AGENT}" + ("=adopt=evicted" if config == "thev" else "")]
    elif config in HYBRID_MODES or config in HYBRID_FILE_MODES:
        if not HYBRID_AGENT.exists():
            die(f"{HYBRID_AGENT} is missing: run make first")
        if config in HYBRID_MODES:
            options = ["mode=" + HYBRID_MODES[config]]
        else:
            options = ["mode=" + HYBRID_FILE_MODES[config], f"nvm={h2_dir or run_dir}", f"nvmSize={mb(h2)}m"]
        options = ",".join(options + ([hybrid_options] if hybrid_options else []))
        cmd += ["-XX:+UseParallelGC", f"-Xmx{mb(heap)}m", f"-javaagent:{HYBRID_AGENT}={options}"]
    elif config in ("thd", "thdx", "thg1d"):
        if config == "thg1d":
            cmd += ["-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress"]
        if config == "thdx":
            cmd += [f"-Xmx{mb(heap)}m"]
        cmd += ["-XX:+EnableTeraHeap", "-XX:+TeraHeapDynamicH1", f"-XX:TeraHeapSize={mb(h2)}m",
                f"-XX:TeraHeapPath={h2_dir or run_dir}", f"-javaagent:{AGENT}"]
    else:
        die(f"unknown configuration '{config}': use one of {', '.join(CONFIGS + EXTRA_CONFIGS)}")
    if storage_level:
        storage = storage_level
    if memory_fraction:
        cmd += [f"-Dspark.memory.fraction={memory_fraction}"]
    if h2_region and config in TERAHEAP_CONFIGS:
        cmd += [f"-XX:TeraHeapRegionSize={mb(h2_region)}m"]
    cmd += [f"-Xlog:gc,gc+teraheap,gc+teraheap+resize:file={run_dir}/gc.log:uptime,tags"]
    if profile:
        cmd += [f"-XX:StartFlightRecording=filename={run_dir}/run.jfr,settings=profile"]
    cmd += ["-Dspark.master=local[2]",
            "-Dspark.serializer=org.apache.spark.serializer.KryoSerializer",
            f"-Dspark.local.dir={run_dir}/spark-local",
            "-Dspark.ui.enabled=false",
            "-cp", f"{BENCH_JAR}:{CLASSPATH.read_text().strip()}",
            "org.teraheap.bench.SparkBench", workload, "--scale", str(scale), "--storage", storage]
    return cmd + extra


def config_has_tier(config):
    """Whether the configuration keeps a second tier in a file: TeraHeap's H2, the hybrid file."""
    return config in TERAHEAP_CONFIGS or config in HYBRID_FILE_MODES


def check_tier_outside_cap(args):
    """--tier-outside-cap needs --h2-dir on a tmpfs: elsewhere the tier's pages are the device's,
    and nothing is charged to the cap at allocation to keep outside."""
    if not args.tier_outside_cap:
        return
    if not args.h2_dir:
        die("--tier-outside-cap needs --h2-dir DIR, a directory on a tmpfs (a RAM disk)")
    directory = os.path.realpath(args.h2_dir)
    best, fstype = "", ""
    for line in Path("/proc/mounts").read_text().splitlines():
        point, kind = line.split()[1], line.split()[2]
        if (directory == point or directory.startswith(point.rstrip("/") + "/")) and len(point) > len(best):
            best, fstype = point, kind
    if fstype != "tmpfs":
        die(f"--tier-outside-cap: {args.h2_dir} is on {fstype or 'no known file system'}, not a tmpfs; "
            "use a RAM disk (benchmarks/remote/backing.sh up ram), or drop the option")


def sd_fraction(jfr_file):
    """The share of executor-thread CPU samples inside serialization or deserialization."""
    if not jfr_file.exists():
        return None
    out = subprocess.run([str(JFR), "print", "--events", "jdk.ExecutionSample", "--stack-depth",
                          "200", str(jfr_file)], capture_output=True, text=True).stdout
    total = sd = 0
    for event in out.split("jdk.ExecutionSample")[1:]:
        if "Executor task launch worker" not in event:
            continue
        total += 1
        if SD_FRAME.search(event):
            sd += 1
    return sd / total if total else 0.0


def run(args):
    heap, cap = size_bytes(args.heap), size_bytes(args.cap) if args.cap and args.config != "thu" else 0
    h2 = size_bytes(args.h2) if args.h2 else max(4 * heap, 2 << 30)
    mo_heap = size_bytes(args.mo_heap) if args.mo_heap else 3 * heap
    stamp = time.strftime("%Y%m%d-%H%M%S")
    run_dir = WORK / f"{args.workload}-{args.config}-{args.scale}-{stamp}-{os.getpid()}"
    run_dir.mkdir(parents=True)
    log_dir = BUILD / "bench" / "spark-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / f"{run_dir.name}.log"
    cmd = java_command(args.workload, args.config, args.scale, heap, h2, mo_heap, run_dir,
                       args.profile, (args.extra or []) + (["--gc-each-job"] if args.gc_each_job else []),
                       args.h2_dir, size_bytes(args.h2_region) if args.h2_region else None,
                       args.storage, args.memory_fraction, args.hybrid_options)
    if os.geteuid() == 0 and args.drop_caches:
        drop_page_cache()
    tier_outside = args.h2_dir if args.tier_outside_cap and config_has_tier(args.config) else None
    if tier_outside and args.config in TERAHEAP_CONFIGS:
        # The run enters the cap once H2's file is allocated: on a tmpfs only when asked.
        cmd.insert(1, "-XX:+TeraHeapPreallocate")
    capped = CappedRun(cmd, run_dir, log, cap, args.timeout, tier_outside)
    stdout, peak, faults = capped.stdout, capped.peak, capped.major_faults
    result = {}
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            result = key_values(line)
    status = capped.status(bool(result))
    # The full GCs of SparkBench's H2 report, after the workload, are not the workload's.
    report_s = int(result["h2_report_uptime_ms"]) / 1000 if "h2_report_uptime_ms" in result else None
    minor, major, moved = gc_times(run_dir / "gc.log", report_s)
    if (run_dir / "gc.log").exists():
        shutil.copy(run_dir / "gc.log", log.with_suffix(".gc.log"))
    wall = float(result.get("seconds", "nan"))
    fraction = sd_fraction(run_dir / "run.jfr") if args.profile else None
    sd = wall * fraction if fraction is not None and status == "ok" else float("nan")
    other = wall - minor - major - (sd if sd == sd else 0.0)
    row = {"time": stamp, "workload": args.workload, "config": args.config,
           "scale": args.scale,
           "heap_mb": {"mo": mb(mo_heap), "thd": 0, "thg1d": 0}.get(args.config, mb(heap)),
           "cap_mb": mb(cap), "h2_mb": mb(h2) if args.config in TERAHEAP_CONFIGS else 0, "status": status,
           "wall_s": f"{wall:.3f}", "other_s": f"{other:.3f}", "sd_s": f"{sd:.3f}",
           "minor_gc_s": f"{minor:.3f}", "major_gc_s": f"{major:.3f}",
           "h2_moved_mb": f"{moved / 2**20:.1f}",
           "cached_mb": f"{int(result.get('cached_bytes', 0)) / 2**20:.1f}",
           "peak_mb": mb(peak), "checksum": result.get("checksum", ""),
           "tolerance": result.get("tolerance", ""), "log": str(log.relative_to(REPO)),
           "major_faults": faults, "read_mb": capped.read_mb, "storage": result.get("storage", ""),
           "hybrid_options": args.hybrid_options or "",
           "device_read_mbps": getattr(args, "device_read_mbps", None) or ""}
    if args.config in HYBRID_MODES or args.config in HYBRID_FILE_MODES:
        summary = hybrid_summary(log)
        row.update({k: summary.get(k, "") for k in HYBRID_FIELDS})
    if report_s is not None:
        # The most H2 held: after any full GC of the run, or at a job's end (--gc-each-job).
        peak = max(h2_peak_bytes(run_dir / "gc.log", report_s), int(result["h2_peak_bytes"]))
        row.update({"h2_peak_mb": f"{peak / 2**20:.1f}", "h2_samples": result["h2_samples"],
                    **{f"h2_{k}_mb": f"{int(result[f'h2_{k}_bytes']) / 2**20:.1f}"
                       for k in ("cached_at_peak", "worst_excess", "dropped")}})
    append_row(Path(args.csv), row)
    shutil.rmtree(run_dir, ignore_errors=True)
    # What was not measured (S/D without --profile, reads without root) is left out, not printed as nan.
    measured = [f"minor GC {row['minor_gc_s']}", f"major GC {row['major_gc_s']}"]
    if sd == sd:
        measured.append(f"S/D {row['sd_s']}")
    more = [f"moved to H2 {row['h2_moved_mb']} MB"] if args.config in TERAHEAP_CONFIGS else []
    if faults:
        more.append(f"major faults {faults}")
    if capped.read_mb:
        more.append(f"read {capped.read_mb} MB")
    print(f"{args.workload:6} {CONFIG_NAMES[args.config]:14} scale {args.scale}: {status}, "
          f"{row['wall_s']} s ({', '.join(measured)}), " + "".join(m + ", " for m in more)
          + f"checksum {row['checksum']}")
    if report_s is not None:
        excess = float(row["h2_worst_excess_mb"])
        bound = (f"over the bound by up to {excess:.1f} MB" if excess > 0 else
                 f"within the bound (2x the cache plus a region per RDD) by at least {-excess:.1f} MB")
        # Job ends are sampled under --gc-each-job only: without them there is no bound to state.
        at_job_ends = f"at {row['h2_samples']} job ends {bound}; " if int(row["h2_samples"]) > 0 else ""
        print(f"{'':6} H2 at most {row['h2_peak_mb']} MB; {at_job_ends}"
              f"{row['h2_dropped_mb']} MB once every RDD is dropped")
    return status == "ok"


def hybrid_summary(log):
    """The hybrid cache agent's figures at exit ("[hybrid-spark] summary: key=value ..."), if it printed them."""
    for line in reversed(log.read_text(errors="replace").splitlines()):
        if line.startswith("[hybrid-spark] summary:"):
            return key_values(line)
    return {}


def append_row(csv_file, row):
    csv_file.parent.mkdir(parents=True, exist_ok=True)
    new = not csv_file.exists() or csv_file.stat().st_size == 0
    # A CSV begun by an older bench.py keeps its columns.
    if new:
        fields = FIELDS
    else:
        with open(csv_file, newline="") as f:
            fields = next(csv.reader(f))
    with open(csv_file, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        if new:
            w.writeheader()
        w.writerow(row)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check(args):
    """Every configuration must agree on the result of each workload at each scale."""
    rows = [r for r in read_rows(args.csv) if r["status"] == "ok"]
    groups = {}
    for r in rows:
        groups.setdefault((r["workload"], r["scale"]), []).append(r)
    bad = 0
    for (workload, scale), rs in sorted(groups.items()):
        ref = rs[0]["checksum"]
        tol = float(rs[0]["tolerance"] or 0)
        for r in rs[1:]:
            value = r["checksum"]
            # Exact results compare as text (64-bit hashes do not fit a double).
            differs = (value != ref if tol == 0 else
                       abs(float(value) - float(ref)) > tol * max(abs(float(ref)), 1.0))
            if differs:
                print(f"MISMATCH {workload} scale {scale}: {rs[0]['config']} gave {ref!r}, "
                      f"{r['config']} gave {value!r}")
                bad += 1
    failed = [r for r in read_rows(args.csv) if r["status"] not in ("ok", "exceeds-cap")]
    for r in failed:
        print(f"FAILED {r['workload']} {r['config']}: {r['status']} (log: {r['log']})")
    return bad == 0 and not failed


def space(args):
    """H2's use against the cached data, per run measured with --gc-each-job."""
    rows = [r for r in read_rows(args.csv) if r.get("h2_samples") and r["status"] == "ok"]
    print("| workload | configuration | scale | job ends | H2 at most (MB) | cached then (MB) "
          "| worst margin to the bound (MB) | H2 once dropped (MB) |")
    print("| --- " * 8 + "|")
    bad = 0
    for r in rows:
        over = float(r["h2_worst_excess_mb"]) > 0 or float(r["h2_dropped_mb"]) >= 1
        bad += over
        print(f"| {r['workload']} | {r['config']} | {r['scale']} | {r['h2_samples']} | {r['h2_peak_mb']} | "
              f"{r['h2_cached_at_peak_mb']} | {-float(r['h2_worst_excess_mb']):.1f} | {r['h2_dropped_mb']} |"
              + (" **over**" if over else ""))
    if not rows:
        print("no TeraHeap run measured with --gc-each-job")
    return bool(rows) and bad == 0


def read_footprints():
    """D per (workload, scale), from the footprint file."""
    if not FOOTPRINTS.exists():
        return {}
    return {(r["workload"], r["scale"]): float(r["d_mb"]) * 2**20 for r in read_rows(FOOTPRINTS)}


def measure_footprint(workload, scale):
    """D: the cached footprint of a MEMORY_ONLY run in a heap that holds all of it, uncapped,
    as the papers measure it. Recorded in FOOTPRINTS, replacing an older figure."""
    probe = BUILD / "bench" / "spark-footprint-runs.csv"
    ns = argparse.Namespace(workload=workload, config="mo", scale=scale, heap="1g", cap=None,
                            h2=None, mo_heap="12g", csv=str(probe), profile=False,
                            drop_caches=False, timeout=3600, extra=[], h2_dir=None, tier_outside_cap=False,
                            gc_each_job=False, h2_region=None, storage=None, memory_fraction=None,
                            hybrid_options=None)
    if not run(ns):
        die(f"could not measure the cached footprint of {workload} (log in {probe})")
    row = [r for r in read_rows(probe) if r["workload"] == workload and r["scale"] == scale][-1]
    rows = [r for r in (read_rows(FOOTPRINTS) if FOOTPRINTS.exists() else [])
            if (r["workload"], r["scale"]) != (workload, scale)]
    rows.append({"workload": workload, "scale": scale, "d_mb": row["cached_mb"],
                 "measured": row["time"], "heap_mb": row["heap_mb"], "wall_s": row["wall_s"]})
    rows.sort(key=lambda r: ((WORKLOADS + EXTRA_WORKLOADS).index(r["workload"]), float(r["scale"])))
    with open(FOOTPRINTS, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FOOTPRINT_FIELDS)
        w.writeheader()
        w.writerows(rows)
    print(f"{workload}: D = {row['cached_mb']} MB at scale {scale}", flush=True)
    return float(row["cached_mb"]) * 2**20


def footprint(args):
    for workload in args.workloads:
        measure_footprint(workload, args.scale)


def mo_heap_for(d):
    """Spark-MO's heap: a storage pool that holds D, with headroom."""
    return int(d * MO_POOL_HEADROOM / SPARK_MEMORY_FRACTION) + SPARK_RESERVED


def record_exceeds_cap(workload, scale, heap, cap, csv_file):
    """A Spark-MO row that was not run: its heap alone does not fit under the cap."""
    row = {f: "" for f in FIELDS}
    row.update({"time": time.strftime("%Y%m%d-%H%M%S"), "workload": workload, "config": "mo",
                "scale": scale, "heap_mb": mb(heap), "cap_mb": mb(cap), "h2_mb": 0,
                "status": "exceeds-cap"})
    append_row(Path(csv_file), row)
    print(f"{workload:6} Spark-MO       scale {scale}: not run, a heap of {mb(heap)} MB (storage "
          f"pool for D) and the JVM's {mb(JVM_OUTSIDE_HEAP)} MB outside it exceed the cap of "
          f"{mb(cap)} MB")


def suite(args):
    out = Path(args.csv)
    if args.device_rate and out.exists() and out.stat().st_size:
        with open(out, newline="") as f:
            if "device_read_mbps" not in next(csv.reader(f)):
                die(f"{out} was begun by an older bench.py and has no device_read_mbps column for "
                    "--device-rate: give a new --csv")
    known = read_footprints()
    for workload in args.workloads:
        d = known.get((workload, args.scale)) or measure_footprint(workload, args.scale)
        heaps = ([size_bytes(h) for h in args.heap] if args.heap
                 else [max(int(d * args.heap_fraction), 512 << 20)])
        # Twice D, in whole GB: a multiple of any region size.
        h2 = max(-(-int(d * 2) // (1 << 30)) << 30, 2 << 30)
        mo_heap = mo_heap_for(d)
        caps = {h: cap_for(args, h) for h in heaps}
        print(f"{workload}: D = {mb(int(d))} MB; H = {', '.join(f'{mb(h)}' for h in heaps)} MB; cap = "
              f"{', '.join(sorted({f'{mb(c)} MB' if c else 'none' for c in caps.values()}))}; "
              f"Spark-MO heap {mb(mo_heap)} MB", flush=True)
        # Spark-MO's heap and TeraHeap's dynamic H1 do not depend on H: one run per cap.
        runs = [(c, h) for c in args.configs for h in heaps
                if c not in H_FREE or caps[h] not in [caps[k] for k in heaps[:heaps.index(h)]]]
        for rep in range(args.repeat):
            # The device's rate beside this repeat's runs, for the bound (table).
            rate = sequential_read_mbps(args.h2_dir or WORK) if args.device_rate else None
            if rate:
                print(f"{workload}: the disk reads {rate:.0f} MB/s sequentially (fio)", flush=True)
            # A new order per repeat: no configuration or H always runs first, or after another.
            for config, heap in random.sample(runs, len(runs)):
                cap = caps[heap]
                if config == "mo" and cap and mo_heap + JVM_OUTSIDE_HEAP > cap:
                    record_exceeds_cap(workload, args.scale, mo_heap, cap, out)
                    continue
                ns = argparse.Namespace(workload=workload, config=config, scale=args.scale,
                                        heap=f"{mb(heap)}m", cap=f"{mb(cap)}m" if cap else None,
                                        h2=f"{mb(h2)}m", mo_heap=f"{mb(mo_heap)}m", csv=str(out),
                                        profile=True, drop_caches=True, timeout=args.timeout, extra=[],
                                        h2_dir=args.h2_dir, tier_outside_cap=args.tier_outside_cap,
                                        gc_each_job=False, h2_region=None,
                                        storage=args.storage, memory_fraction=args.memory_fraction,
                                        hybrid_options=args.hybrid_options, device_read_mbps=rate)
                run(ns)
    # The figure goes to the build tree, wherever the CSV is kept.
    plot(argparse.Namespace(csv=str(out), out=str(BUILD / "bench")))


def cap_for(args, heap):
    """The suite's DRAM cap at heap H: --cap (none: uncapped), else H plus --cap-extra."""
    if args.cap is not None:
        return 0 if args.cap == "none" else size_bytes(args.cap)
    return heap + size_bytes(args.cap_extra)


def plot(args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_rows(args.csv)
    workloads = [w for w in WORKLOADS + EXTRA_WORKLOADS if any(r["workload"] == w for r in rows)]
    # A sweep's first point per workload: the smallest cap and H.
    first = {w: sweep_points(rows, w)[0] for w in workloads}
    rows = [r for r in rows if r["cap_mb"] == first[r["workload"]][0]
            and (r["heap_mb"] == first[r["workload"]][1] or r["config"] in H_FREE)]
    parts = [("other_s", "other", "#bbbbbb"), ("sd_s", "S/D", "#e69f00"),
             ("minor_gc_s", "minor GC", "#56b4e9"), ("major_gc_s", "major GC", "#d55e00")]
    ncols = min(5, len(workloads))
    nrows = (len(workloads) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(2.4 * ncols + 1, 3.2 * nrows + 0.6),
                             squeeze=False)
    for ax in axes.flat[len(workloads):]:
        ax.axis("off")
    for ax, w in zip(axes.flat, workloads):
        base, base_name = None, ""
        labels, bottoms = [], []
        for config in CONFIGS:
            rs = [r for r in rows if r["workload"] == w and r["config"] == config]
            ok = [r for r in rs if r["status"] == "ok"]
            if not rs:
                continue
            labels.append(config.upper())
            if not ok:
                bottoms.append("exceeds cap" if all(r["status"] == "exceeds-cap" for r in rs)
                               else "failed")
                continue
            med = {p: statistics.median(float(r[p]) if r[p] != "nan" else 0.0 for r in ok)
                   for p, _, _ in parts + [("wall_s", "", "")]}
            if base is None:   # Spark-SD, or the first configuration that ran if it failed
                base, base_name = med["wall_s"], config.upper()
            bottoms.append(med)
        x = 0
        for label, med in zip(labels, bottoms):
            if isinstance(med, str):
                ax.text(x, 0.05, med, rotation=90, ha="center", va="bottom", fontsize=8)
            else:
                y = 0.0
                for p, name, color in parts:
                    h = med[p] / base if base else 0
                    ax.bar(x, h, bottom=y, color=color, label=name if x == 0 else None)
                    y += h
            x += 1
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_title(w if base_name == "SD" else f"{w} (normalized to {base_name})", fontsize=9)
    for row in axes:
        row[0].set_ylabel("time / Spark-SD's")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    out = Path(args.out) / "spark-breakdown.png"
    fig.savefig(out, dpi=120)
    print(f"figure: {out}")


def stock_in(rows):
    """The stock configurations the CSV ran (an older CSV has no serialized baselines)."""
    return [c for c in STOCK if any(r["config"] == c for r in rows)]


# Configurations whose heap is not H (Spark-MO's holds D; dynamic H1 has none): their rows join
# every H of their workload and cap.
H_FREE = ("mo", "thd", "thg1d")
# TeraHeap's variants that `table` sets against the best stock configuration beside TeraHeap (th).
RATIO_VARIANTS = ("thf", "thev", "thd", "thdx")


def sweep_points(rows, w):
    """The (cap, H) points of workload w in the CSV, smallest cap and H first; uncapped last."""
    points = {(r["cap_mb"], r["heap_mb"]) for r in rows if r["workload"] == w and r["config"] not in H_FREE}
    points = points or {(r["cap_mb"], r["heap_mb"]) for r in rows if r["workload"] == w}
    return sorted(points, key=lambda p: (int(p[0]) == 0, int(p[0]), int(p[1])))


def table(args):
    """A Markdown table of the medians per workload, cap, H and configuration, TeraHeap against
    the best stock configuration, and their geometric mean."""
    rows = read_rows(args.csv)
    footprints = read_footprints()
    configs = [c for c in CONFIGS + ["thf", "thev", "thd", "thdx", "thg1", "thg1d", "hyff", "hylf"]
               if any(r["config"] == c for r in rows)]
    stock = stock_in(rows)
    best = "best Spark-SD" if set(stock) <= {"sd", "g1"} else "best stock"
    # What each side must read back: the objects in H2 against the same cache serialized.
    serialized_header = " serialized cache (MB) |" if "ser" in stock else ""
    # TeraHeap with its defaults, and each variant of it in the CSV, against the best stock.
    variants = ["th"] + [c for c in RATIO_VARIANTS if c in configs]
    print("| workload | D (MB) | H (MB) | cap (MB) | " + " | ".join(CONFIG_NAMES[c] for c in configs)
          + "".join(f" | {best} / {CONFIG_NAMES[c]}" for c in variants)
          + " | moved to H2 (MB) |" + serialized_header)
    print("| --- " * (len(configs) + 5 + len(variants) + bool(serialized_header)) + "|")
    ratios = {c: [] for c in variants}
    for w in WORKLOADS + EXTRA_WORKLOADS:
        for cap, heap in sweep_points(rows, w):
            rs = [r for r in rows if r["workload"] == w and r["cap_mb"] == cap
                  and (r["heap_mb"] == heap or r["config"] in H_FREE)]
            ok = {c: [r for r in rs if r["config"] == c and r["status"] == "ok"] for c in CONFIGS + EXTRA_CONFIGS}
            med = {c: statistics.median(float(r["wall_s"]) for r in ok[c]) if ok[c] else None for c in ok}
            cells = []
            for c in configs:
                runs = [r for r in rs if r["config"] == c]
                if runs and runs[0]["status"] == "exceeds-cap":
                    cells.append(f"exceeds cap (heap {runs[0]['heap_mb']} MB)")
                elif med[c] is None:
                    cells.append(runs[0]["status"] if runs else "-")
                else:
                    cells.append(f"{med[c]:.1f} s ({len(ok[c])}/{len(runs)})")
            # D as the papers measure it (bench.py footprint), else "?".
            d = footprints.get((w, rs[0]["scale"]))
            baseline = min((med[c] for c in stock if med[c]), default=None)
            shown = []
            for c in variants:
                if baseline and med[c]:
                    ratios[c].append(baseline / med[c])
                    shown.append(f"{ratios[c][-1]:.2f}")
                else:
                    shown.append("-")
            moved = statistics.median(float(r["h2_moved_mb"]) for r in ok["th"]) if ok["th"] else 0
            print(f"| {w} | {d / 2**20:.0f} | " if d else f"| {w} | ? | ", end="")
            serialized = ""
            if serialized_header:
                serialized = (f" {statistics.median(float(r['cached_mb']) for r in ok['ser']):.0f} |"
                              if ok["ser"] else " - |")
            print(f"{heap} | {cap if int(cap) else 'none'} | " + " | ".join(cells) + " | "
                  + " | ".join(shown) + f" | {moved:.0f} |" + serialized)
    for c in variants:
        if ratios[c]:
            print(f"\nGeometric mean of {best} / {CONFIG_NAMES[c]} over {len(ratios[c])} points: "
                  f"{statistics.geometric_mean(ratios[c]):.2f}; lowest {min(ratios[c]):.2f}")
    best_heap_table(rows, stock, [c for c in variants if c not in H_FREE])
    ceiling_table(rows)
    disk_table(rows)
    bound_table(rows)


def best_heap_table(rows, stock, teraheap):
    """Where a cap was swept over several H: each side at its best H under that cap, the user
    who tunes the heap once for the job."""
    times = {}
    for r in rows:
        if r["status"] == "ok":
            times.setdefault((r["workload"], r["cap_mb"], r["heap_mb"], r["config"]), []).append(float(r["wall_s"]))
    med = {key: statistics.median(ts) for key, ts in times.items()}
    lines = []
    for w in WORKLOADS + EXTRA_WORKLOADS:
        points = sweep_points(rows, w)
        for cap in sorted({c for c, _ in points if int(c)}, key=int):
            heaps = [h for c, h in points if c == cap]
            if len(heaps) < 2:
                continue
            # (median, H) at the fastest H of each configuration.
            best = {c: min(((med[(w, cap, h, c)], h) for h in heaps if (w, cap, h, c) in med), default=None)
                    for c in stock + teraheap}
            found = [(best[c][0], best[c][1], c) for c in stock if best[c]]
            if not found:
                continue
            base, base_heap, base_config = min(found)
            cells = [f"{best[c][0]:.1f} s (H {best[c][1]} MB), {base / best[c][0]:.2f}" if best[c] else "-"
                     for c in teraheap]
            lines.append(f"| {w} | {cap} | {base:.1f} s ({CONFIG_NAMES[base_config]}, H {base_heap} MB) | "
                         + " | ".join(cells) + " |")
    if lines:
        print("\n| workload | cap (MB) | best stock at its best H | "
              + " | ".join(f"{CONFIG_NAMES[c]} at its best H, best stock / it" for c in teraheap) + " |")
        print("| --- " * (3 + len(teraheap)) + "|")
        print("\n".join(lines))


def ceiling_table(rows):
    """Where the CSV has TeraHeap uncapped (thu): how fast TeraHeap could be if reading H2 back
    cost nothing, against the better Spark-SD at the cap. The ratio TeraHeap's reads can reach."""
    if not any(r["config"] == "thu" for r in rows):
        return
    print("\n| workload | best Spark-SD (capped) | TeraHeap (capped) | TeraHeap uncapped "
          "| best Spark-SD / TeraHeap | best Spark-SD / TeraHeap uncapped |")
    print("| --- " * 6 + "|")
    ceilings = []
    stock = stock_in(rows)
    for w in WORKLOADS + EXTRA_WORKLOADS:
        med = {}
        for c in stock + ["th", "thu"]:
            ok = [float(r["wall_s"]) for r in rows
                  if r["workload"] == w and r["config"] == c and r["status"] == "ok"]
            med[c] = (statistics.median(ok), len(ok)) if ok else None
        base = min((med[c] for c in stock if med[c]), default=None)
        if not base or not med["thu"]:
            continue
        ceilings.append(base[0] / med["thu"][0])
        th = f"{med['th'][0]:.1f} s ({med['th'][1]})" if med["th"] else "-"
        ratio = f"{base[0] / med['th'][0]:.2f}" if med["th"] else "-"
        print(f"| {w} | {base[0]:.1f} s ({base[1]}) | {th} | {med['thu'][0]:.1f} s ({med['thu'][1]}) "
              f"| {ratio} | {ceilings[-1]:.2f} |")
    if ceilings:
        print(f"\nGeometric mean of best Spark-SD / TeraHeap uncapped over {len(ceilings)} workloads: "
              f"{statistics.geometric_mean(ceilings):.2f}")


def bound_table(rows):
    """TeraHeap against the physical bound of its run (suite --device-rate, configurations th and
    thu): the larger of its time uncapped, where nothing is read back from the disk, and the time
    the disk takes to read what the capped run read, at the device's sequential rate."""
    rated = [r for r in rows if r.get("device_read_mbps") and r["status"] == "ok"]
    if not any(r["config"] == "th" for r in rated):
        return
    print("\n| workload | H (MB) | cap (MB) | TeraHeap | TeraHeap uncapped | read from disk (MB) "
          "| disk's sequential rate (MB/s) | the read at that rate | bound | TeraHeap / bound |")
    print("| --- " * 10 + "|")
    ratios = []
    for w in WORKLOADS + EXTRA_WORKLOADS:
        for cap, heap in sweep_points(rated, w):
            th = [r for r in rated if r["workload"] == w and r["config"] == "th"
                  and r["cap_mb"] == cap and r["heap_mb"] == heap and r["read_mb"]]
            thu = [float(r["wall_s"]) for r in rated if r["workload"] == w and r["config"] == "thu"
                   and r["heap_mb"] == heap]
            if not th or not thu:
                continue
            wall = statistics.median(float(r["wall_s"]) for r in th)
            read = statistics.median(float(r["read_mb"]) for r in th)
            rate = statistics.median(float(r["device_read_mbps"])
                                     for r in rated if r["workload"] == w)
            bound = max(statistics.median(thu), read / rate)
            ratios.append(wall / bound)
            print(f"| {w} | {heap} | {cap} | {wall:.1f} s ({len(th)}) | {statistics.median(thu):.1f} s "
                  f"({len(thu)}) | {read:.0f} | {rate:.0f} | {read / rate:.1f} s | {bound:.1f} s "
                  f"| {ratios[-1]:.2f} |")
    if ratios:
        print(f"\nTeraHeap / its bound over {len(ratios)} points: geometric mean "
              f"{statistics.geometric_mean(ratios):.2f}, highest {max(ratios):.2f} (goal: 1.10 or less)")


def disk_table(rows):
    """What each configuration read from the disks per run (medians), where the CSV counted it:
    a configuration that reads as much as another at the device's speed cannot be much faster."""
    counted = [r for r in rows if r.get("read_mb") and r["status"] == "ok"]
    if not counted:
        return
    print("\n| workload | configuration | read from disk (MB) | read / wall time (MB/s) | major faults |")
    print("| --- " * 5 + "|")
    for w in WORKLOADS + EXTRA_WORKLOADS:
        for c in CONFIGS + EXTRA_CONFIGS:
            rs = [r for r in counted if r["workload"] == w and r["config"] == c]
            if not rs:
                continue
            read = statistics.median(float(r["read_mb"]) for r in rs)
            rate = statistics.median(float(r["read_mb"]) / float(r["wall_s"]) for r in rs)
            faults = statistics.median(float(r["major_faults"] or 0) for r in rs)
            print(f"| {w} | {CONFIG_NAMES[c]} | {read:.0f} | {rate:.0f} | {faults:.0f} |")


def main():
    p = Parser(description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="one workload in one configuration", description=__doc__)
    r.add_argument("workload", choices=WORKLOADS + EXTRA_WORKLOADS, help="the workload")
    r.add_argument("config", choices=CONFIGS + EXTRA_CONFIGS, help="the configuration (listed above)")
    add_options(r, scale="1", heap="1g", cap=None, h2=None, csv=str(DEFAULT_CSV), timeout=3600,
                unset={"cap": "uncapped", "h2": "4H, at least 2g"})
    r.add_argument("--mo-heap", type=size, metavar="SIZE", help="Spark-MO's heap (default: 3H)")
    r.add_argument("--profile", action="store_true", help="JFR samples for the S/D share (default: off)")
    r.add_argument("--drop-caches", action="store_true",
                   help="drop the page cache first; needs root (default: off)")
    r.add_argument("--h2-region", type=size, metavar="SIZE", help="TeraHeap's region size (default: the JVM's, 32m)")
    r.add_argument("--gc-each-job", action="store_true",
                   help="a full GC after every Spark job, and H2's use checked against the cache after each "
                        "(tests; never for timings; default: off)")
    r.add_argument("extra", nargs="*", help="more SparkBench arguments, after --")
    fp = sub.add_parser("footprint", help="measure each workload's cached footprint D", description=__doc__)
    add_options(fp, workloads=WORKLOADS, scale="10", choices={"workloads": WORKLOADS})
    s = sub.add_parser("suite", help="every configuration at H = X * D, repeated; then the figure",
                       description=__doc__)
    add_options(s, workloads=WORKLOADS, configs=CONFIGS, scale="10", repeat=3, heap=None,
                csv=str(DEFAULT_CSV), timeout=900, many=("heap",),
                about={"heap": "a fixed H instead of --heap-fraction * D; several are swept, shuffled with"
                               " the configurations"},
                unset={"heap": "--heap-fraction * D, at least 512m"},
                choices={"workloads": WORKLOADS, "configs": CONFIGS + EXTRA_CONFIGS})
    s.add_argument("--heap-fraction", type=float, default=0.5, metavar="X",
                   help="H as a fraction of D (default: 0.5)")
    s.add_argument("--cap-extra", type=size, default="1g", metavar="SIZE", help="the cap is H plus this (default: 1g)")
    s.add_argument("--device-rate", action="store_true",
                   help="before each repeat, measure the disk's sequential read rate under H2's directory with fio "
                        "(1 MiB direct reads, queue depth 32), kept in each row; table then prints TeraHeap "
                        "against its bound (run with th and thu; default: off)")
    s.add_argument("--cap", metavar="SIZE",
                   help="one DRAM cap for every H instead of H plus --cap-extra; none: uncapped (default: unset)")
    for parser in (r, s):
        parser.add_argument("--h2-dir", metavar="DIR",
                            help="where TeraHeap's H2 file and the hybrid cache's file go (default: the run's directory)")
        parser.add_argument("--tier-outside-cap", action="store_true",
                            help="with --h2-dir on a tmpfs: the run enters the DRAM cap once that file is allocated, "
                                 "so that the RAM disk is memory beside the cap (an ideal NVM), not in it (default: off)")
        parser.add_argument("--storage", metavar="LEVEL",
                            help="the storage level of every configuration (default: each configuration's own)")
        parser.add_argument("--memory-fraction", type=float, metavar="F", help="spark.memory.fraction (default: Spark's, 0.6)")
        parser.add_argument("--hybrid-options", metavar="OPTIONS",
                            help="more options for the hybrid cache's agent (hyf, hyl, hyla), e.g. dram=0.0625,bandwidth=0.25")
        parser.add_argument("--spark", metavar="VERSION",
                            help="the Spark release, built first by benchmarks/spark/build-release.sh VERSION "
                                 "(default: the one make builds against)")
    for name, text in (("check", "exit 1 unless every configuration gave the same result"),
                       ("space", "H2's space against the cache, from --gc-each-job runs"),
                       ("table", "the medians as a Markdown table")):
        add_csv_input(sub.add_parser(name, help=text, description=__doc__), "a CSV that run or suite wrote")
    pl = sub.add_parser("plot", help="breakdown bars per workload", description=__doc__)
    add_csv_input(pl, "a CSV that run or suite wrote")
    add_options(pl, out=str(BUILD / "bench"))
    # What follows -- goes to SparkBench as it is, split off here: argparse fills `extra` (empty)
    # before any option, and would then refuse the arguments after --.
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = p.parse_args(argv[:cut])
    if getattr(args, "spark", None):
        use_spark(args.spark)
    if argv[cut + 1:]:
        if args.command != "run":
            p.error(f"only run passes arguments after -- on to SparkBench, not {args.command}")
        args.extra += argv[cut + 1:]
    if args.command in ("run", "suite"):
        check_tier_outside_cap(args)
    if args.command == "run":
        sys.exit(0 if run(args) else 1)
    if args.command == "check":
        sys.exit(0 if check(args) else 1)
    if args.command == "space":
        sys.exit(0 if space(args) else 1)
    if args.command == "footprint":
        footprint(args)
    if args.command == "suite":
        suite(args)
    if args.command == "plot":
        plot(args)
    if args.command == "table":
        table(args)


if __name__ == "__main__":
    main()
