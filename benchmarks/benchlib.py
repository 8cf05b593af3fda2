"""What the benchmark suites share: their command line (Parser, add_options), sizes, a JVM run under
a memory cgroup, GC times from the GC log, and the shuffled repeats of the side-by-side benchmarks."""

import argparse
import csv
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup/memory")
BLKIO_ROOT = Path("/sys/fs/cgroup/blkio")
# A read limit no device reaches: cgroup v1 keeps a group's per-device byte counts only for
# devices that have a throttling rule.
UNREACHED_BPS = 1 << 50
REPO = Path(__file__).resolve().parents[1]
SIZE = re.compile(r"(\d+(?:\.\d+)?)([kmgt]?)b?")


def die(msg):
    print(f"{os.path.basename(sys.argv[0])}: {msg}", file=sys.stderr)
    sys.exit(2)


def size_bytes(text):
    m = SIZE.fullmatch(str(text).strip().lower())
    if not m:
        die(f"bad size '{text}': use a number with k, m or g")
    return int(float(m.group(1)) * 1024 ** "_kmgt".index(m.group(2) or "_"))


def mb(n):
    return n // (1024 * 1024)


def drop_page_cache():
    """Writes dirty pages back and empties the page cache, so that a run starts cold (root only)."""
    subprocess.run(["sync"])
    Path("/proc/sys/vm/drop_caches").write_text("3")


class MemoryCap:
    """A v1 memory cgroup capping a run's DRAM, page cache included."""

    def __init__(self, name, limit):
        self.path = None
        if not limit:
            return
        if os.geteuid() != 0 or not (CGROUP_ROOT / "memory.limit_in_bytes").exists():
            print(f"{os.path.basename(sys.argv[0])}: warning: no memory cgroup"
                  " (needs root and cgroup v1); running uncapped", file=sys.stderr)
            return
        self.path = CGROUP_ROOT / "teraheap-bench" / name
        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / "memory.limit_in_bytes").write_text(str(limit))
        (self.path / "memory.max_usage_in_bytes").write_text("0")

    def enter(self):
        self.enter_pid(os.getpid())

    def enter_pid(self, pid):
        if self.path:
            (self.path / "cgroup.procs").write_text(str(pid))

    def peak(self):
        return int((self.path / "memory.max_usage_in_bytes").read_text()) if self.path else 0

    def major_faults(self):
        """Page faults that read from the disk (H2's pages, a mapped heap, jars), or '' uncapped."""
        if not self.path:
            return ""
        for line in (self.path / "memory.stat").read_text().splitlines():
            key, value = line.split()
            if key == "total_pgmajfault":
                return value
        return ""

    def close(self):
        if self.path:
            try:
                (self.path / "memory.force_empty").write_text("0")
                self.path.rmdir()
            except OSError:
                pass


def ensure_fio():
    """fio, from Debian's package where it is missing."""
    if shutil.which("fio") is None:
        print(f"{os.path.basename(sys.argv[0])}: installing fio", flush=True)
        subprocess.run(["apt-get", "install", "-y", "-q", "fio"], check=True, stdout=subprocess.DEVNULL)


def fio(directory, rw, bs, depth, runtime, size):
    """One fio job on a file in `directory` (direct I/O, libaio): its mean and 99th-percentile
    latency, MB/s and IOPS."""
    out = subprocess.run(
        ["fio", "--name=bench", f"--directory={directory}", f"--rw={rw}", f"--bs={bs}",
         f"--iodepth={depth}", "--ioengine=libaio", "--direct=1", f"--size={size}",
         f"--runtime={runtime}", "--time_based", "--ramp_time=1", "--output-format=json"],
        capture_output=True, text=True)
    if out.returncode != 0:
        die(f"fio {rw} {bs} QD{depth} on {directory}: {out.stderr.strip()}")
    job = json.loads(out.stdout[out.stdout.index("{"):])["jobs"][0]
    side = job["write" if "write" in rw else "read"]
    clat = side["clat_ns"]
    return {"mean_lat_us": f"{side['lat_ns']['mean'] / 1000:.1f}",
            "p99_lat_us": f"{clat.get('percentile', {}).get('99.000000', 0) / 1000:.1f}",
            "mb_s": f"{side['bw_bytes'] / 2**20:.1f}", "iops": f"{side['iops']:.0f}"}


def sequential_read_mbps(directory):
    """The device's sequential read rate under `directory`, at its best: 1 MiB direct reads at
    queue depth 32 over a 2 GB file, for 10 s. The file is removed after."""
    ensure_fio()
    scratch = Path(directory) / "fio-sequential-read"
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        return float(fio(scratch, "read", "1m", 32, 10, "2g")["mb_s"])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def tier_files(pid, directory):
    """The files under directory that process pid has open or mapped, deleted ones included, as
    paths under /proc that stat them."""
    found = []
    for kind in ("fd", "map_files"):
        try:
            entries = os.listdir(f"/proc/{pid}/{kind}")
        except OSError:
            continue
        for e in entries:
            link = f"/proc/{pid}/{kind}/{e}"
            try:
                target = os.readlink(link)
            except OSError:
                continue
            if target.startswith(str(directory) + "/"):
                found.append(link)
    return found


def enter_cap_once_tier_allocated(proc, limit, directory, timeout):
    """Moves proc into the cap once a file of its own under directory is wholly allocated (cgroup
    v1 leaves the charges made before a move where they were). Returns what it saw, for the log:
    the tier's size and the run's resident memory left outside the cap, or why it gave up."""
    deadline = time.monotonic() + min(timeout, 120)
    while proc.poll() is None and time.monotonic() < deadline:
        for path in tier_files(proc.pid, directory):
            try:
                st = os.stat(path)
            except OSError:
                continue
            if st.st_size >= (64 << 20) and st.st_blocks * 512 >= st.st_size - (1 << 20):
                rss = resident_mb(proc.pid)
                limit.enter_pid(proc.pid)
                return f"{mb(st.st_size)} MB allocated outside, {rss} MB resident before the move"
        time.sleep(0.005)
    if proc.poll() is None:
        limit.enter_pid(proc.pid)
    return "no allocated tier found; entered at once"


def resident_mb(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


class DiskReads:
    """A v1 blkio cgroup counting the bytes a run's processes read from the disks (page faults and
    their read-ahead included; the page cache's write-back is not theirs in cgroup v1, so only reads
    are counted)."""

    def __init__(self, name):
        self.path = None
        if os.geteuid() != 0 or not (BLKIO_ROOT / "cgroup.procs").exists():
            return
        self.path = BLKIO_ROOT / "teraheap-bench" / name
        self.path.mkdir(parents=True, exist_ok=True)
        for dev in Path("/sys/block").glob("*/dev"):
            try:
                (self.path / "blkio.throttle.read_bps_device").write_text(
                    f"{dev.read_text().strip()} {UNREACHED_BPS}")
            except OSError:
                pass

    def enter(self):
        if self.path:
            (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def read_mb(self):
        """MB read from the disks, or '' where nothing could count them."""
        if not self.path:
            return ""
        total = 0
        for line in (self.path / "blkio.throttle.io_service_bytes_recursive").read_text().splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] == "Read":
                total += int(fields[2])
        return str(mb(total))

    def close(self):
        if self.path:
            try:
                self.path.rmdir()
            except OSError:
                pass


def gc_times(log, until_s=None):
    """Minor and major GC pause seconds, and bytes moved to H2, from the unified GC log (its
    lines decorated with uptime); with until_s, only what happened before that uptime."""
    minor = major = 0.0
    moved = 0
    for line in gc_log_lines(log, until_s):
        m = re.search(r"Pause (Young|Full|Remark|Cleanup)[^\n]*?(\d+\.\d+)ms$", line)
        if m:
            if m.group(1) == "Young":
                minor += float(m.group(2)) / 1000
            else:
                major += float(m.group(2)) / 1000
        m = re.search(r"Moved \d+ objects \((\d+)K\) to H2", line)
        if m:
            moved += int(m.group(1)) * 1024
    return minor, major, moved


def h2_peak_bytes(log, until_s=None):
    """The most H2 held after any full GC, from TeraHeap's lines of the GC log."""
    peak = 0
    for line in gc_log_lines(log, until_s):
        m = re.search(r"H2 used (\d+)M of", line)
        if m:
            peak = max(peak, int(m.group(1)) << 20)
    return peak


def gc_log_lines(log, until_s=None):
    if not log.exists():
        return []
    lines = log.read_text(errors="replace").splitlines()
    if until_s is None:
        return lines
    kept = []
    for line in lines:
        m = re.match(r"\[(\d+\.\d+)s\]", line)
        if m and float(m.group(1)) > until_s:
            break
        kept.append(line)
    return kept


class CappedRun:
    """One JVM run under a memory cap: its output, exit code, crash files and cgroup figures."""

    def __init__(self, cmd, run_dir, log, cap, timeout, tier_outside=None):
        """tier_outside: a directory on a tmpfs where the run keeps its second tier (H2, or the
        hybrid cache's file). The run then enters the cap only once a file of its own there is
        wholly allocated, so that the RAM disk's pages stay charged outside the cap: memory beside
        the cap, not the cap's own DRAM."""
        limit = MemoryCap(run_dir.name, cap)
        reads = DiskReads(run_dir.name)

        def enter():
            if not tier_outside:
                limit.enter()
            reads.enter()

        with open(log, "w") as out:
            out.write(" ".join(cmd) + "\n")
            out.flush()
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=out, text=True,
                                    cwd=run_dir, preexec_fn=enter)
            if tier_outside:
                outside = enter_cap_once_tier_allocated(proc, limit, Path(tier_outside), timeout)
                out.write(f"[bench] entered the cap once its tier in {tier_outside} was allocated: "
                          f"{outside}\n")
                out.flush()
            try:
                self.stdout, _ = proc.communicate(timeout=timeout)
                self.code = proc.returncode
            except subprocess.TimeoutExpired:
                proc.kill()
                self.stdout, _ = proc.communicate()
                self.code = None
            out.write(self.stdout or "")
            self.stdout = self.stdout or ""
        self.peak, self.major_faults = limit.peak(), limit.major_faults()
        self.read_mb = reads.read_mb()
        limit.close()
        reads.close()
        self.text = log.read_text(errors="replace")
        self.crashed = False
        for crash in run_dir.glob("hs_err_pid*.log"):
            shutil.move(str(crash), str(log.parent / f"{run_dir.name}-{crash.name}"))
            self.crashed = True
        self.timeout = timeout

    def status(self, has_result):
        """ok, crashed, timeout(..), java-oom, killed-at-cap (the cgroup's OOM killer) or failed(code)."""
        if self.crashed:
            return "crashed"
        if self.code is None:
            return f"timeout({self.timeout}s)"
        if self.code == 0 and has_result:
            return "ok"
        if "OutOfMemoryError" in self.text:
            return "java-oom"
        if self.code in (-signal.SIGKILL, 137):
            return "killed-at-cap"
        return f"failed({self.code})"


def key_values(line):
    """The key=value pairs of a line such as 'RESULT seconds=1.2 checksum=7'."""
    return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)


class Parser(argparse.ArgumentParser):
    """argparse as every benchmark script uses it: the description (the script's docstring) kept
    as written, and a mistake named on one line with exit status 2. argparse's own error prints
    the usage first, which for a script with subcommands runs to several lines."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def size(text):
    """An argparse type: a size with its unit (512m, 2g), checked and kept as written, since the
    scripts pass it on. A bare number is refused: 500 would be 500 bytes, not 500 MB."""
    m = SIZE.fullmatch(text.strip().lower())
    if not m or not m.group(2):
        raise argparse.ArgumentTypeError(f"bad size '{text}': use a number with k, m or g, such as 512m")
    return text


# The options that mean the same in every script, and what they say in --help. add_options gives
# a script those it takes, with its own defaults.
OPTIONS = {
    "workloads": dict(nargs="+", metavar="W", help="the workloads to run"),
    "configs": dict(nargs="+", metavar="C", help="the configurations to run"),
    "scale": dict(metavar="S", help="the workloads' input scale"),
    "heap": dict(type=size, metavar="H", help="H: the heap, -Xmx, which is H1 under TeraHeap"),
    "cap": dict(type=size, metavar="C",
                help="the DRAM cap: a memory cgroup over the JVM and its page cache; needs root and cgroup v1"),
    "h2": dict(type=size, metavar="SIZE", help="TeraHeap's H2 size, -XX:TeraHeapSize"),
    "repeat": dict(type=int, metavar="N", help="repeats, each in a new random order"),
    "timeout": dict(type=int, metavar="SECONDS", help="seconds a run may take before it is stopped"),
    "csv": dict(metavar="F", help="the CSV the rows are appended to, made with a header if new"),
    "out": dict(metavar="DIR", help="where the figure goes"),
}


def shown(value):
    """A default as --help shows it: lists space-separated, paths in the repository relative."""
    if isinstance(value, (list, tuple)):
        return " ".join(shown(v) for v in value) or "none"
    if isinstance(value, (str, Path)) and Path(value).is_absolute() and REPO in Path(value).parents:
        return str(Path(value).relative_to(REPO))
    return str(value)


def add_options(parser, prefix="", about=None, unset=None, choices=None, required=(), many=(),
                **defaults):
    """Adds the standard options named by defaults' keys (OPTIONS), each with its default.
    prefix names the suite in a script that drives two ("spark" gives --spark-heap); about
    replaces an option's standard text ({name: text}); unset says what an option whose default is
    None means when it is not given ({"cap": "uncapped"}), as --help states every default;
    choices limits the values ({name: [...]}); required names options without a default; many
    names options that take one value or more (a list)."""
    about, unset, choices = about or {}, unset or {}, choices or {}
    for name, default in defaults.items():
        spec = dict(OPTIONS[name])
        text = about.get(name, spec["help"])
        if name in required:
            spec["required"] = True
            said = "required"
        elif default is None:
            said = f"default: {unset[name]}"   # a KeyError here: say what not giving it means
        else:
            said = f"default: {shown(default)}"
        if name in many:
            spec["nargs"] = "+"
        if name in choices:
            spec["choices"] = choices[name]
            text += f", of: {shown(choices[name])}"
        spec["help"] = f"{text} ({said})".replace("%", "%%")
        flag = f"--{prefix}-{name}" if prefix else f"--{name}"
        parser.add_argument(flag, default=default, **spec)


def add_csv_input(parser, what="a CSV that run wrote", nargs=None, default=None, said=None):
    """The CSV (or CSVs) a table, plot or check reads, as a positional argument; said: the
    default as --help states it, where listing it would be too long."""
    text = what + (f" (default: {said or shown(default)})" if default else "")
    parser.add_argument("csv", nargs=nargs, default=default, help=text.replace("%", "%%"), metavar="F")


def run_or_table(doc, run, table, extra=None, **defaults):
    """The command line of a side-by-side benchmark: 'run' with the standard options of defaults
    (add_options) and those extra(parser) adds, or 'table F'."""
    p = Parser(description=doc)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run the comparison, appending to --csv", description=doc)
    if extra:
        extra(r)
    add_options(r, **defaults)
    t = sub.add_parser("table", help="the medians as a Markdown table", description=doc)
    add_csv_input(t)
    args = p.parse_args()
    if args.command == "run":
        run(args)
    else:
        table(args)


def run_shuffled(args, settings, one, fields=None):
    """Each of args.repeat repeats runs every (workload, setting) once, in a new random order:
    one(args, workload, setting, runs_csv) returns a row, appended to args.csv (with fields as
    columns, or the row's own); runs_csv, beside it, is for the runs' bench.py rows. Yields
    (repeat, workload, setting, row) as each run ends."""
    out = Path(args.csv)
    out.parent.mkdir(parents=True, exist_ok=True)
    runs_csv = out.with_name(out.stem + "-runs.csv")
    for rep in range(args.repeat):
        cells = [(w, s) for w in args.workloads for s in settings]
        random.shuffle(cells)
        for workload, setting in cells:
            row = one(args, workload, setting, runs_csv)
            new = not out.exists()
            with open(out, "a", newline="") as f:
                w = csv.DictWriter(f, fieldnames=fields or list(row), extrasaction="ignore")
                if new:
                    w.writeheader()
                w.writerow(row)
            yield rep + 1, workload, setting, row


def bench_run(bench, args, workload, config, runs_csv, env=None, drop_caches=True, more=()):
    """One `bench.py run` (bench: its path) of workload in config with args' scale, heap, cap, h2
    and timeout, and the options in more, appending to runs_csv, with JAVA_TOOL_OPTIONS cleared
    and then env added. Returns the row it appended."""
    run_env = dict(os.environ)
    run_env.pop("JAVA_TOOL_OPTIONS", None)
    run_env.update({k: v for k, v in (env or {}).items() if v})
    cmd = [sys.executable, str(bench), "run", workload, config, "--scale", args.scale, "--heap", args.heap,
           "--csv", str(runs_csv), "--timeout", str(args.timeout)]
    # Uncapped, or H2 at bench.py's default, where args leave them out.
    for option in ("cap", "h2"):
        if getattr(args, option, None):
            cmd += [f"--{option}", getattr(args, option)]
    subprocess.run(cmd + list(more) + (["--drop-caches"] if drop_caches else []), env=run_env, check=False)
    with open(runs_csv, newline="") as f:
        return list(csv.DictReader(f))[-1]


def check_runs(bench, csv_path):
    """Prints whether every run of a workload in the runs CSV beside csv_path gave the same result
    (bench.py check)."""
    runs_csv = Path(csv_path).with_name(Path(csv_path).stem + "-runs.csv")
    if runs_csv.exists():
        ok = subprocess.run([sys.executable, str(bench), "check", str(runs_csv)], check=False).returncode == 0
        print("\nevery run of a workload gave the same result" if ok else "\nRESULTS DIFFER (above)")
