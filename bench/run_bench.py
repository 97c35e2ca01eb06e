"""Benchmark driver behind scripts/bench: builds the bench programs, generates inputs, runs
every case >= 3 times under /usr/bin/time -v (peak RSS of the child), prints the numbers and
writes bench/results/latest.md. Not product code; see docs/benchmarks.md.

  run_bench.py [--quick] [--runs N] [--only a,b,c,d,e,f,g,h,j] [--rest-mb 100,400] [--out FILE]
               [--build DIR] [--partition-rows N]
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build-bench")
PY = os.path.join(ROOT, ".venv", "bin", "python")
PY_BENCH = os.path.join(ROOT, ".venv-bench", "bin", "python")
BENCH = os.path.join(ROOT, "bench")

# Sizes: (full, quick).
NDJSON_RECORDS = (2_000_000, 20_000)     # ~500 bytes a record: ~1 GB full
CSV_ROWS = (10_000_000, 200_000)
DLT_NDJSON_RECORDS = (200_000, 10_000)   # dlt normalizes in Python: measured on a prefix-size input
DLT_CSV_ROWS = (2_000_000, 200_000)   # dlt: 1 run of the full CSV would take minutes
MERGE = ((10_000_000, 1_000_000), (200_000, 20_000))
APPEND_ROWS = (1_000_000, 100_000)
APPEND_SNAPSHOTS = (1000, 100)  # history levels 10, 100, 1000 up to this
REST_APPENDS = (100, 20)  # sequential one-file appends per run of (g)
PARTITION_ROWS = (10_000_000, 200_000)  # (j): rows of the dated input, 90 days
REST_SOURCE_MB = ((100, 400, 1024), (10,))  # (f): served pages, databox and the floor
DLT_REST_MB = (100, 10)  # (f): dlt normalizes in Python, so it reads the smallest size only
SERVICES = os.path.join(ROOT, "scripts", "services")
GROWTH = (0.25, 1.0, 4.0)


def log(msg: str) -> None:
    print(f"[bench {datetime.datetime.now():%H:%M:%S}] {msg}", flush=True)


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def sh(cmd: str) -> str:
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()


class Case:
    """One measured command: runs, parsed result lines, child peak RSS."""

    def __init__(self, name: str, tool: str, cmd: list, env=None):
        self.name, self.tool, self.cmd, self.env = name, tool, cmd, env
        self.results, self.rss_mb, self.loads, self.stdouts = [], [], [], []
        self.cpu_s = []  # user + system CPU seconds of the command and its children

    def run(self, runs: int, cleanup=None) -> "Case":
        for i in range(runs):
            if cleanup:
                cleanup()
            self.loads.append(loadavg())
            proc = subprocess.run(["/usr/bin/time", "-v"] + self.cmd, capture_output=True,
                                  text=True, env=self.env)
            if proc.returncode != 0:
                raise SystemExit(f"{self.name} ({self.tool}) failed:\n{' '.join(self.cmd)}\n"
                                 f"{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
            m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
            self.rss_mb.append(int(m.group(1)) / 1024 if m else float("nan"))
            self.cpu_s.append(sum(float(x) for x in re.findall(
                r"(?:User|System) time \(seconds\): ([\d.]+)", proc.stderr)))
            self.results.append(parse_results(proc.stdout))
            self.stdouts.append(proc.stdout)
            log(f"{self.name} {self.tool} run {i + 1}/{runs}: "
                f"{self.results[-1][-1] if self.results[-1] else proc.stdout.strip()[-200:]} "
                f"rss={self.rss_mb[-1]:.0f}MB load={self.loads[-1]}")
        if cleanup:
            cleanup()
        return self

    def median(self, key: str, index: int = -1) -> float:
        return statistics.median(float(r[index][key]) for r in self.results)

    def command(self) -> str:
        """The command as the results print it: repository paths relative, the run's temporary
        folder as $BENCH_TMP (it is gone after the run)."""
        return " ".join(re.sub(r"\S*/databox_bench_[A-Za-z0-9_]+", "$BENCH_TMP",
                               os.path.relpath(c, ROOT) if c.startswith(ROOT) else c)
                        for c in self.cmd)


def parse_results(stdout: str) -> list:
    out = []
    for line in stdout.splitlines():
        if line.startswith("result:"):
            out.append(dict(kv.split("=", 1) for kv in line[len("result:"):].split()))
    return out


def build(targets: list) -> None:
    log("configuring and building " + " ".join(targets))
    subprocess.run(["cmake", "-S", ROOT, "-B", BUILD, "-G", "Ninja", "-DDATABOX_WERROR=ON",
                    "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", BUILD, "--target"] + targets + ["-j2"], check=True,
                   stdout=subprocess.DEVNULL)


def generate(kind: str, path: str, n: int) -> str:
    if not os.path.exists(path):
        log(f"generating {kind} input {os.path.basename(path)} ({n} records)")
        subprocess.run([PY, os.path.join(BENCH, "gen_inputs.py"), kind, path, str(n)], check=True)
    return path


def size_mb(path: str) -> float:
    return os.path.getsize(path) / (1024 * 1024)


def fmt(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


class Report:
    def __init__(self):
        self.lines = []
        self.targets = []  # (target, measured, verdict)

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def target(self, what: str, measured: str, ok) -> None:
        verdict = "n/a" if ok is None else ("met" if ok else "NOT met")
        self.targets.append(f"| {what} | {measured} | {verdict} |")


def cpu_ratio(ours: Case, peer: Case) -> float:
    """Records per CPU second of ours over peer's (median CPU seconds, the same input)."""
    return (float(ours.results[0][-1]["records"]) / statistics.median(ours.cpu_s)) / (
        float(peer.results[0][-1]["records"]) / statistics.median(peer.cpu_s))


def interleave(cases: list, runs: int) -> None:
    """Runs (case, cleanup) pairs one run of each in turn, `runs` times."""
    for _ in range(runs):
        for case, cleanup in cases:
            case.run(1, cleanup)


def nested_floor(kind: str, path: str, work: str) -> Case:
    """The floor: DuckDB reads the input and writes it as one Parquet file (nesting kept)."""
    return Case(f"ingest-{kind}", "floor: DuckDB -> Parquet",
                [PY, os.path.join(BENCH, "floor_parquet.py"), kind, path, work])


def same_work_floor(ndjson: str, work: str) -> Case:
    """The NDJSON floor that does databox's work: DuckDB unnests into the same three tables with
    the same id columns (bench/floor_normalize.py)."""
    return Case("ingest-ndjson", "same-work floor: DuckDB -> 3 normalized Parquet tables",
                [PY, os.path.join(BENCH, "floor_normalize.py"), ndjson, work])


def ingest_command_case(binary: str, kind: str, path: str, work: str) -> Case:
    """(h): `databox ingest` of an input, timed from start to exit (bench/databox_ingest.py)."""
    return Case(f"ingest-{kind}", "databox ingest (the command)",
                [PY, os.path.join(BENCH, "databox_ingest.py"), binary, kind, path, work])


def databox_binary(given) -> str:
    """The databox binary: the one given, or build/src/cli/databox (built when missing)."""
    if given:
        return os.path.abspath(given)
    binary = os.path.join(BUILD, "src", "cli", "databox")
    if not os.path.exists(binary):
        build(["databox"])
    return binary


def ingest_table(report: Report, cases: list) -> None:
    report.add("| tool | input | runs | median s | CPU s | records/s | MB/s | rows, all tables | "
               "peak RSS MB (median / max) | load avg at start of each run |",
               "|---|---|---|---|---|---|---|---|---|---|")
    for c in cases:
        report.add(f"| {c.tool} | {c.results[0][-1]['input_mb']} MB, "
                   f"{c.results[0][-1]['records']} records | {len(c.results)} | "
                   f"{c.median('seconds'):.2f} | {statistics.median(c.cpu_s):.2f} | "
                   f"{fmt(c.median('records_per_s'))} | "
                   f"{c.median('mb_per_s'):.1f} | {c.results[0][-1].get('rows_all_tables', '-')} | "
                   f"{statistics.median(c.rss_mb):.0f} / {max(c.rss_mb):.0f} | "
                   f"{'; '.join(c.loads)} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run in ~1 minute")
    ap.add_argument("--runs", type=int, default=None, help="runs per case (default 3; quick: 1)")
    ap.add_argument("--growth-4x-runs", type=int, default=None,
                    help="runs of the 4x growth input (default: --runs)")
    ap.add_argument("--only", default="a,b,c,d,e,f,g,h,j")
    ap.add_argument("--partition-rows", type=int, default=None,
                    help="(j): rows of the dated input (default 10 M; quick: 200,000)")
    ap.add_argument("--partition-input", default="dated-mixed", choices=("dated-mixed", "dated"),
                    help="(j): rows in mixed time order (default) or in time order")
    ap.add_argument("--rest-mb", default=None,
                    help="(f): comma-separated page sizes in MB (default 100,400,1024; quick: 10)")
    ap.add_argument("--out", default=os.path.join(BENCH, "results", "latest.md"))
    ap.add_argument("--tmp", default=None, help="folder for inputs and warehouses")
    ap.add_argument("--databox", default=None,
                    help="databox binary for (d), (f) and (h) (default: build it in build-bench)")
    ap.add_argument("--build", default=None,
                    help="a build folder that already holds the bench programs (and databox): "
                         "no configure and build of build-bench")
    args = ap.parse_args()
    global BUILD
    if args.build:
        BUILD = os.path.abspath(args.build)
    q = 1 if args.quick else 0
    only = set(args.only.split(","))
    runs = args.runs or (1 if q else 3)
    if not os.path.exists(PY_BENCH):
        raise SystemExit("missing .venv-bench: run scripts/bench-setup first")
    if not args.build:
        build(["ingest_bench", "merge_bench", "iceberg_append_bench", "rest_append_bench"])
    tmp = tempfile.mkdtemp(prefix="databox_bench_", dir=args.tmp)
    inputs = os.path.join(tmp, "inputs")
    work = os.path.join(tmp, "work")
    os.makedirs(inputs)

    def clean_work():
        shutil.rmtree(work, ignore_errors=True)

    report = Report()
    started = datetime.datetime.now(datetime.timezone.utc)
    versions = {
        "git": sh(f"git -C {ROOT} rev-parse --short HEAD"),
        "cpu": sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip(),
        "cores": str(os.cpu_count()),
        "memory": sh("free -g | awk '/Mem:/ {print $2\" GiB\"}'"),
        "os": sh(". /etc/os-release && echo $PRETTY_NAME") + ", kernel " + platform.release(),
        "compiler": sh("c++ --version | head -1"),
        "build": (f"{os.path.relpath(BUILD, ROOT)}/ (--build: as it was configured)" if args.build
                  else "RelWithDebInfo (-O2 -g), build-bench/"),
        "duckdb (library and Python)": sh(f"{PY} -c 'import duckdb; print(duckdb.__version__)'"),
        "dlt": sh(f"{PY_BENCH} -c 'import dlt; print(dlt.__version__)'"),
        "pyiceberg (.venv-bench)": sh(f"{PY_BENCH} -c 'import pyiceberg; print(pyiceberg.__version__)'"),
        "pyarrow (.venv-bench)": sh(f"{PY_BENCH} -c 'import pyarrow; print(pyarrow.__version__)'"),
        "python": platform.python_version(),
    }
    mode = "QUICK (smoke sizes; numbers are not the targets' sizes)" if q else "full"
    report.add("# Benchmark results", "",
               f"Generated by `scripts/bench{' --quick' if q else ''}` on "
               f"{started:%Y-%m-%d %H:%M} UTC; mode: {mode}; {runs} runs per case, medians. "
               "The machine is shared with other engineers' builds and tests while this runs: "
               "the 1/5/15-minute load average at the start of every run is printed beside the "
               "numbers (2 cores: a load above 2 means we did not have the machine to ourselves).",
               "", "## Machine and versions", "")
    report.add(*[f"- {k}: {v}" for k, v in versions.items()], f"- load average at start: {loadavg()}", "")
    commands = []

    ingest = {}
    shared = {}  # cases (a) and (h) both report, run once

    def once(key, make):
        if key not in shared:
            shared[key] = make()
        return shared[key]

    if only & {"a", "e", "h"}:
        # The NDJSON cases that (a) and (h) compare run interleaved (one run of each in turn), so
        # that a change in the machine's load falls on all of them alike.
        nd = generate("ndjson", os.path.join(inputs, "events.ndjson"), NDJSON_RECORDS[q])
        group = {"bench-ndjson": (Case("ingest-ndjson", "databox", [
            os.path.join(BUILD, "bench", "ingest_bench"), "ndjson", nd, "--tmp", tmp]), None)}
        if only & {"a", "h"}:
            group["floor-ndjson"] = (nested_floor("ndjson", nd, work), clean_work)
            group["floor-same-ndjson"] = (same_work_floor(nd, work), clean_work)
        if "h" in only:
            group["command-ndjson"] = (ingest_command_case(
                databox_binary(args.databox), "ndjson", nd, work), clean_work)
        interleave(list(group.values()), runs)
        shared.update({key: case for key, (case, _) in group.items()})
        ingest["ndjson"] = shared["bench-ndjson"]
    if "a" in only:
        report.add("## (a) File ingest -> one Iceberg table (embedded SQLite catalog, local disk)", "")
        dnd = generate("ndjson", os.path.join(inputs, "events_dlt.ndjson"), DLT_NDJSON_RECORDS[q])
        csv = generate("csv", os.path.join(inputs, "readings.csv"), CSV_ROWS[q])
        dcsv = csv if DLT_CSV_ROWS[q] == CSV_ROWS[q] else generate(
            "csv", os.path.join(inputs, "readings_dlt.csv"), DLT_CSV_ROWS[q])
        nd = os.path.join(inputs, "events.ndjson")
        floor_nd, same_nd = shared["floor-ndjson"], shared["floor-same-ndjson"]
        dlt_nd = Case("ingest-ndjson", "dlt (filesystem, iceberg)",
                      [PY_BENCH, os.path.join(BENCH, "dlt_ingest.py"), "ndjson", dnd, work]).run(runs, clean_work)
        db_csv = once("bench-csv", lambda: Case(
            "ingest-csv", "databox", [os.path.join(BUILD, "bench", "ingest_bench"), "csv", csv,
                                      "--tmp", tmp]).run(runs))
        floor_csv = once("floor-csv", lambda: nested_floor("csv", csv, work).run(runs, clean_work))
        dlt_csv = Case("ingest-csv", "dlt (filesystem, iceberg)",
                       [PY_BENCH, os.path.join(BENCH, "dlt_ingest.py"), "csv", dcsv, work]).run(runs, clean_work)
        dlt_csv_ids = Case("ingest-csv", "dlt + _dlt_id/_dlt_load_id (same columns as databox)",
                           [PY_BENCH, os.path.join(BENCH, "dlt_ingest.py"), "csv-ids", dcsv,
                            work]).run(runs, clean_work)
        shared["dlt-ndjson"], shared["dlt-csv"] = dlt_nd, dlt_csv
        for title, cases in (("Nested NDJSON", [ingest["ndjson"], dlt_nd, floor_nd, same_nd]),
                             ("Flat CSV", [db_csv, dlt_csv, floor_csv, dlt_csv_ids])):
            report.add(f"### {title}", "")
            ingest_table(report, cases)
            db, dlt, floor = cases[:3]
            r_dlt = db.median("records_per_s") / dlt.median("records_per_s")
            r_floor = db.median("records_per_s") / floor.median("records_per_s")
            report.add("", f"databox/dlt throughput (records/s): **{r_dlt:.1f}x**; "
                           f"databox/floor: **{r_floor:.2f}x**.", "")
            report.target(f"(a) {title}: >= 10x dlt's throughput", f"{r_dlt:.1f}x", r_dlt >= 10)
            if cases[3] is same_nd:
                r_same = db.median("records_per_s") / same_nd.median("records_per_s")
                report.add(f"databox/same-work floor (records/s): **{r_same:.2f}x**; by CPU "
                           f"time (records per CPU second): databox/floor "
                           f"{cpu_ratio(db, floor):.2f}x, databox/same-work floor "
                           f"{cpu_ratio(db, same_nd):.2f}x.", "")
                report.target(f"(a) {title}: >= 0.7x the same-work floor", f"{r_same:.2f}x",
                              r_same >= 0.7)
            else:
                r_ids = db.median("records_per_s") / cases[3].median("records_per_s")
                report.add(f"databox/dlt with the same `_dlt_id` and `_dlt_load_id` columns "
                           f"(records/s): **{r_ids:.1f}x**.", "")
                report.target(f"(a) {title}: >= 0.5x the floor", f"{r_floor:.2f}x",
                              r_floor >= 0.5)
            rss = max(db.rss_mb)
            report.target(f"(a) {title}: databox peak RSS <= 1 GB", f"{rss:.0f} MB", rss <= 1024)
            commands += [c.command() for c in cases]
        p = ingest["ndjson"].results[len(ingest["ndjson"].results) // 2][-1]
        report.add("databox NDJSON phases (middle run, seconds; the phases overlap): read " +
                   p.get("read_s", "?") + ", parse + normalize " + p.get("normalize_s", "?") +
                   " (summed over the normalizer threads, one per core; " + p.get("blocks", "?") +
                   " blocks, " + p.get("renormalized", "?") + " normalized again), write data "
                   "files " + p.get("data_files_s", "?") + " (the longest of the per-table "
                   "COPYs, which run at once), handing batches to the COPYs " +
                   p.get("push_s", "?") + " (waiting for full queues), waiting for "
                   "normalized batches " + p.get("wait_s", "?") + ", commit " +
                   p.get("commit_ms", "?") + " ms; " + p.get("files", "?") + " data files in " +
                   p.get("tables", "?") + " tables.", "")
        if DLT_NDJSON_RECORDS[q] != NDJSON_RECORDS[q]:
            report.add(f"dlt's NDJSON input is {DLT_NDJSON_RECORDS[q]:,} records and its CSV input "
                       f"{DLT_CSV_ROWS[q]:,} rows of the same generators (dlt is slow enough that "
                       "the full inputs x 3 runs would not fit the session); the ratios compare "
                       "throughput (records/s).", "")
        mb = ingest["ndjson"].median("mb_per_s")
        report.add("The dlt CSV case uses dlt's Arrow path, which by default adds neither `_dlt_id` "
                   "nor `_dlt_load_id` (dlt's `add_dlt_id`/`add_dlt_load_id` default to false for "
                   "Arrow items); databox writes both. The last CSV row turns both on "
                   "(`normalize.parquet_normalizer`), so its table has the columns databox "
                   "writes; the target's ratio above is against the default (faster) one. The floor writes only the input columns "
                   "(nested NDJSON stays nested structs/lists: no child tables). The same-work "
                   "floor (`bench/floor_normalize.py`) does databox's NDJSON work in DuckDB alone: "
                   "it reads the file once into a temporary table, flattens the objects into `__` "
                   "columns and writes the root table and the two lists unnested into child "
                   "tables (the same rows and columns, `_dlt_id` from an MD5 in base64, "
                   "`_dlt_parent_id`, `_dlt_list_idx`) as three Parquet files with databox's "
                   "writer settings; the NDJSON target applies to it.", "")
        report.target("1 GB nested NDJSON -> Iceberg >= 100 MB/s", f"{mb:.1f} MB/s", mb >= 100 if not q else None)

    if "b" in only:
        report.add("## (b) Merge: upsert (10 % updates, 90 % inserts) by identifier field", "")
        (base, up) = MERGE[q]
        cases = []
        for b, u in ((base, up), (base // 10, up // 10)):
            for mode in ("copy-on-write", "merge-on-read"):
                cases.append(Case(f"merge {b}/{u}", f"databox PrepareMerge, {mode}",
                                  [os.path.join(BUILD, "bench", "merge_bench"), str(b), str(u), mode]).run(runs))
            cases.append(Case(f"merge {b}/{u}", "pyiceberg Table.upsert (copy-on-write)",
                              [PY_BENCH, os.path.join(BENCH, "pyiceberg_merge.py"), str(b), str(u), work]).run(runs, clean_work))
        report.add("| tool | base rows | upserted rows | runs | median s | upserted rows/s | read after, s | peak RSS MB | load avg |",
                   "|---|---|---|---|---|---|---|---|---|")
        for c in cases:
            r = c.results[0][-1]
            read = f"{c.median('read_s'):.2f}" if "read_s" in r else "-"
            report.add(f"| {c.tool} | {fmt(int(r['base']))} | {fmt(int(r['upsert']))} | {runs} | "
                       f"{c.median('seconds'):.2f} | {fmt(c.median('rows_per_s'))} | {read} | "
                       f"{statistics.median(c.rss_mb):.0f} | {'; '.join(c.loads)} |")
        peer = cases[2].median("seconds")
        cow, mor = peer / cases[0].median("seconds"), peer / cases[1].median("seconds")
        report.add("", f"pyiceberg/databox time at {fmt(base)}/{fmt(up)}: **{cow:.1f}x** copy-on-write "
                   f"(both rewrite the base file), **{mor:.1f}x** merge-on-read (position delete files; "
                   "pyiceberg's upsert cannot write them). 'read after' is one count over the merged "
                   "table through our read path: what merge-on-read costs readers until the files are "
                   "rewritten.", "")
        report.target(f"(b) merge {fmt(up)} into {fmt(base)}: >= 20x pyiceberg",
                      f"{mor:.1f}x merge-on-read, {cow:.1f}x copy-on-write", mor >= 20)
        commands += [c.command() for c in cases]

    if "c" in only:
        report.add("## (c) Commit overhead vs history (one-file append)", "")
        cmd = [os.path.join(BUILD, "bench", "iceberg_append_bench"), str(APPEND_ROWS[q]),
               str(APPEND_SNAPSHOTS[q])]
        # The warehouse on the disk (the temp folder, like every case) and on tmpfs: on this
        # machine's disk (ext4 without a journal) creating a file gets slow while many inodes
        # were deleted in the last minutes, whoever deleted them (docs/benchmarks.md).
        places = [("disk", "disk (temp folder)", None)]
        if os.path.isdir("/dev/shm"):
            places.append(("tmpfs", "tmpfs (/dev/shm)", dict(os.environ, TMPDIR="/dev/shm")))
        level_re = r"commit at (\d+) snapshots(| \(new table, after the others\)): ([\d.]+) ms " \
                   r"\(mean of \d+, incl\. table load in commit; median ([\d.]+) ms, main-thread " \
                   r"CPU median ([\d.]+) ms"
        report.add("| warehouse on | snapshots in history | commit ms: median of the runs' means | "
                   "median of the runs' medians | main-thread CPU ms (median) |",
                   "|---|---|---|---|---|")
        ratios, loads = {}, []
        for place, title, env in places:
            c = Case(f"append-{place}", "databox", cmd, env=env).run(runs)
            per_level = {}
            for lines in c.stdouts:
                for m in re.finditer(level_re, lines):
                    key = m.group(1) + (" (new table, after the 1,000)" if m.group(2) else "")
                    per_level.setdefault(key, []).append(
                        tuple(float(m.group(i)) for i in (3, 4, 5)))
            for key, values in per_level.items():
                mean, median, cpu = (statistics.median(v[i] for v in values) for i in range(3))
                report.add(f"| {title} | {key} | {mean:.1f} | {median:.1f} | {cpu:.1f} |")
            if "10" in per_level and "1000" in per_level:
                ratios[place] = (statistics.median(v[0] for v in per_level["1000"]) /
                                 statistics.median(v[0] for v in per_level["10"]))
            if place == "disk":
                bulk = [float(m.group(1)) for s in c.stdouts
                        for m in re.finditer(r"([\d.]+) M rows/s", s)]
                bulk_line = (f"Bulk append of {fmt(APPEND_ROWS[q])} generated rows (same program, "
                             f"disk): median {statistics.median(bulk):.2f} M rows/s.")
            loads.append(f"Load avg ({place}): {'; '.join(c.loads)}.")
            commands.append((f"TMPDIR=/dev/shm " if env else "") + c.command())
        report.add("", bulk_line, " ".join(loads), "The mean includes the commit that merges the table's manifests "
                   "(every ~100 commits), which the median leaves out; the new table's row is a "
                   "control: a short history in the file system's state of the moment.", "")
        if "disk" in ratios:
            extra = f" (tmpfs: {ratios['tmpfs']:.2f}x)" if "tmpfs" in ratios else ""
            report.target("(c) 1,000-snapshot commit <= 2x the 10-snapshot commit",
                          f"{ratios['disk']:.2f}x on disk{extra}", ratios["disk"] <= 2)

    if "d" in only:
        report.add("## (d) Refresh of the six recorded sources", "")
        refresh(report, runs, tmp, commands, args.databox)

    if "e" in only:
        report.add("## (e) Growth: nested NDJSON at 0.25x, 1x, 4x", "")
        cases = []
        for factor in GROWTH:
            if factor == 1.0:
                cases.append((factor, ingest["ndjson"]))
                continue
            n = int(NDJSON_RECORDS[q] * factor)
            need_gb = n * 520 / 1e9 * 2.2  # input + warehouse, with margin
            free_gb = shutil.disk_usage(tmp).free / 1e9
            if need_gb > free_gb:
                report.add(f"- {factor}x skipped: needs ~{need_gb:.0f} GB, {free_gb:.0f} GB free")
                continue
            path = generate("ndjson", os.path.join(inputs, f"events_{factor}x.ndjson"), n)
            r = args.growth_4x_runs if factor > 1 and args.growth_4x_runs else runs
            cases.append((factor, Case(f"growth {factor}x", "databox",
                                       [os.path.join(BUILD, "bench", "ingest_bench"), "ndjson", path, "--tmp", tmp]).run(r)))
            os.remove(path)
        report.add("| size | input MB | records | runs | median s | s per GB | MB/s | peak RSS MB (max) | load avg |",
                   "|---|---|---|---|---|---|---|---|---|")
        for factor, c in cases:
            r = c.results[0][-1]
            s = c.median("seconds")
            report.add(f"| {factor}x | {r['input_mb']} | {r['records']} | {len(c.results)} | {s:.2f} | "
                       f"{s / (float(r['input_mb']) / 1024):.1f} | {c.median('mb_per_s'):.1f} | "
                       f"{max(c.rss_mb):.0f} | {'; '.join(c.loads)} |")
            commands.append(c.command())
        if len(cases) == 3:
            spg = [c.median("seconds") / float(c.results[0][-1]["input_mb"]) for _, c in cases]
            rss = [max(c.rss_mb) for _, c in cases]
            lin = max(spg) / min(spg)
            report.add("", f"Seconds per MB vary by {lin:.2f}x across sizes; peak RSS "
                           f"{rss[0]:.0f} -> {rss[1]:.0f} -> {rss[2]:.0f} MB. Throughput here "
                           "follows the machine's load (other engineers' builds) more than the "
                           "input size: compare s/MB only between rows with similar load "
                           "averages.", "")
            report.target("(e) time linear in input (s/MB within 1.25x across 0.25x..4x)", f"{lin:.2f}x", lin <= 1.25)
            report.target("(e) memory flat (4x peak RSS <= 1.25x the 0.25x peak)", f"{rss[2] / rss[0]:.2f}x",
                          rss[2] <= 1.25 * rss[0])
            mb4 = cases[2][1].median("mb_per_s")
            report.target("4 GB nested NDJSON >= 100 MB/s, RSS <= 1 GB",
                          f"{mb4:.1f} MB/s, {rss[2]:.0f} MB", (mb4 >= 100 and rss[2] <= 1024) if not q else None)

    if "f" in only:
        report.add("## (f) Source load: a paginated REST source on 127.0.0.1", "")
        sizes = [float(x) for x in args.rest_mb.split(",")] if args.rest_mb else REST_SOURCE_MB[q]
        rest_source(report, runs, tmp, commands, sizes, DLT_REST_MB[q], args.databox)

    if "h" in only:
        report.add("## (h) `databox ingest` (the command) of the (a) inputs", "")
        ingest_command(report, runs, tmp, inputs, work, commands, q, args.databox, once, shared)

    if "g" in only:
        report.add("## (g) One-file appends through a REST catalog server, S3 on SeaweedFS", "")
        rest_append(report, runs, tmp, commands, REST_APPENDS[q])

    if "j" in only:
        report.add("## (j) A dated table unpartitioned and partitioned by day: load, then one "
                   "day read by DuckDB and Trino", "")
        partition(report, runs, tmp, commands, args.partition_rows or PARTITION_ROWS[q],
                  args.partition_input, databox_binary(args.databox))

    report.add("## Targets", "", "| target | measured | verdict |", "|---|---|---|", *report.targets, "")
    if q:
        report.add("Quick mode: verdicts at smoke sizes only indicate direction.", "")
    report.add("## Exact commands", "", "Inputs are generated by `bench/gen_inputs.py` (DuckDB, "
               "deterministic), (f)'s pages by `bench/gen_pages.py`; paths below are in the run's "
               "temporary folder.", "", "```",
               *sorted(set(commands)), "```", "")
    shutil.rmtree(tmp, ignore_errors=True)
    text = "\n".join(report.lines)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    log(f"wrote {os.path.relpath(args.out, ROOT)}")


def ingest_command(report: Report, runs: int, tmp: str, inputs: str, work: str, commands: list,
                   q: int, binary, once, shared: dict) -> None:
    """(h): `databox ingest` of the (a) NDJSON and CSV inputs beside the (a) rows: ingest_bench
    (the same writer without the command around it), the floor, and dlt when (a) ran."""
    binary = databox_binary(binary)

    def clean_work():
        shutil.rmtree(work, ignore_errors=True)

    nd = generate("ndjson", os.path.join(inputs, "events.ndjson"), NDJSON_RECORDS[q])
    csv = generate("csv", os.path.join(inputs, "readings.csv"), CSV_ROWS[q])

    def cases_of(kind: str, path: str) -> list:
        return [
            once(f"command-{kind}", lambda: ingest_command_case(binary, kind, path, work).run(
                runs, clean_work)),
            once(f"bench-{kind}", lambda: Case(
                f"ingest-{kind}", "databox (ingest_bench)",
                [os.path.join(BUILD, "bench", "ingest_bench"), kind, path, "--tmp", tmp]).run(runs)),
            once(f"floor-{kind}", lambda: nested_floor(kind, path, work).run(runs, clean_work)),
        ]

    rows = {"NDJSON": cases_of("ndjson", nd) + [shared["floor-same-ndjson"]],
            "CSV": cases_of("csv", csv)}
    for title, cases in rows.items():
        dlt = shared.get("dlt-" + title.lower())
        report.add(f"### {title}", "")
        ingest_table(report, cases + ([dlt] if dlt else []))
        db, floor = cases[0], cases[2]
        r_floor = db.median("records_per_s") / floor.median("records_per_s")
        line = f"`databox ingest`/floor throughput (records/s): **{r_floor:.2f}x**"
        # The raised bars: NDJSON >= 0.7x the same-work floor, CSV >= 0.8x the floor.
        if title == "NDJSON":
            r_same = db.median("records_per_s") / cases[3].median("records_per_s")
            line += (f"; /same-work floor: **{r_same:.2f}x** (by CPU time: /floor "
                     f"{cpu_ratio(db, floor):.2f}x, /same-work floor "
                     f"{cpu_ratio(db, cases[3]):.2f}x)")
            report.target("(h) NDJSON: `databox ingest` >= 0.7x the same-work floor",
                          f"{r_same:.2f}x", r_same >= 0.7)
        else:
            report.target("(h) CSV: `databox ingest` >= 0.8x the floor", f"{r_floor:.2f}x",
                          r_floor >= 0.8)
        if dlt:
            r_dlt = db.median("records_per_s") / dlt.median("records_per_s")
            line += f"; /dlt: **{r_dlt:.1f}x**"
            report.target(f"(h) {title}: `databox ingest` >= 10x dlt", f"{r_dlt:.1f}x", r_dlt >= 10)
        else:
            line += " (dlt not run: add `a` to --only)"
        rss = max(db.rss_mb)
        report.target(f"(h) {title}: `databox ingest` peak RSS <= 1 GB", f"{rss:.0f} MB", rss <= 1024)
        report.add("", line + ".", "")
        commands += [c.command() for c in cases]
    report.add("`databox ingest` is timed from its start to its exit (the project is made by "
               "`databox init` first, not timed), so it includes opening the workspace and "
               "rebuilding the raw views; the command writes CSV straight from DuckDB's `read_csv` "
               "(types detected, headers snake_cased, `_dlt_id` from a C++ function), where "
               "`ingest_bench csv` declares the column types and makes `_dlt_id` in SQL.", "")


def refresh(report: Report, runs: int, tmp: str, commands: list, binary=None) -> None:
    if binary is None:
        binary = os.path.join(BUILD, "src", "cli", "databox")
        try:
            build(["databox"])
        except subprocess.CalledProcessError:
            report.add("Not measured: the `databox` binary did not build.", "")
            report.target("(d) concurrent wall <= 0.6x sequential", "not measured", None)
            return
    help_text = subprocess.run([binary, "refresh", "--help"], capture_output=True, text=True)
    if "skip-transform" not in help_text.stdout + help_text.stderr:
        report.add("Not measured: this build's `databox refresh` has no `--skip-transform` yet.", "")
        report.target("(d) concurrent wall <= 0.6x sequential", "not measured", None)
        return
    src = os.path.join(ROOT, "examples", "databox")
    fixtures = os.path.join(ROOT, "fixtures")
    walls = {}
    for label, extra in (("concurrent (default workers)", []), ("sequential (--max-workers 1)", ["--max-workers", "1"])):
        values, loads = [], []
        for _ in range(runs):
            copy = os.path.join(tmp, "refresh")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(src, copy, ignore=shutil.ignore_patterns(".databox"))
            toml = os.path.join(copy, "databox.toml")
            text = open(toml).read().replace('"../../fixtures/', f'"{fixtures}/')
            open(toml, "w").write(text)
            cmd = [binary, "--config", toml, "refresh", "--skip-transform"] + extra
            loads.append(loadavg())
            start = datetime.datetime.now()
            proc = subprocess.run(cmd, capture_output=True, text=True)
            wall = (datetime.datetime.now() - start).total_seconds()
            if proc.returncode != 0:
                report.add(f"Not measured: `{' '.join(cmd[1:])}` failed (exit {proc.returncode}): "
                           f"{(proc.stderr or proc.stdout).strip()[-300:]}", "")
                report.target("(d) concurrent wall <= 0.6x sequential", "not measured", None)
                return
            values.append(wall)
            log(f"refresh {label}: {wall:.2f} s load={loads[-1]}")
        walls[label] = (values, loads)
        commands.append(os.path.relpath(binary, ROOT) + " --config <temp copy of examples/databox>"
                        "/databox.toml refresh --skip-transform " + " ".join(extra))
    report.add("| mode | runs | median wall s | load avg |", "|---|---|---|---|")
    for label, (values, loads) in walls.items():
        report.add(f"| {label} | {len(values)} | {statistics.median(values):.2f} | {'; '.join(loads)} |")
    conc, seq = (statistics.median(v) for v, _ in walls.values())
    report.add("", f"concurrent/sequential: **{conc / seq:.2f}x**.", "")
    report.target("(d) concurrent wall <= 0.6x sequential", f"{conc / seq:.2f}x", conc / seq <= 0.6)


class PageServer:
    """bench/page_server.py on a free port of 127.0.0.1, serving one folder of pages; stopped by
    its PID."""

    def __init__(self, folder: str):
        self.port_file = folder + ".port"
        self.proc = subprocess.Popen([PY, os.path.join(BENCH, "page_server.py"), folder,
                                      self.port_file], stdout=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(self.port_file) or self.proc.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(self.port_file):
            self.stop()
            raise SystemExit("bench/page_server.py did not start")
        self.url = "http://127.0.0.1:" + open(self.port_file).read().strip()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def rest_source(report: Report, runs: int, tmp: str, commands: list, sizes: list, dlt_mb: float,
                binary=None) -> None:
    """(f): `databox run` of a rest_json source, dlt's rest_api source and the DuckDB floor, all
    reading the same GBIF-style pages (bench/gen_pages.py) from the same local server."""
    if binary is None:
        binary = os.path.join(BUILD, "src", "cli", "databox")
        if not os.path.exists(binary):
            build(["databox"])
    work = os.path.join(tmp, "work")

    def clean_work():
        shutil.rmtree(work, ignore_errors=True)

    cases, by_size = [], {}
    for mb in sorted(set(sizes) | {dlt_mb}):
        need_gb = mb / 1024 * 3  # pages + load package + warehouse
        if need_gb > shutil.disk_usage(tmp).free / 1e9:
            report.add(f"- {mb:g} MB skipped: needs ~{need_gb:.0f} GB of disk")
            continue
        folder = os.path.join(tmp, "inputs", f"pages_{mb:g}mb")
        log(f"generating {mb:g} MB of pages")
        subprocess.run([PY, os.path.join(BENCH, "gen_pages.py"), folder, str(mb)], check=True)
        meta = os.path.join(folder, "pages.json")
        server = PageServer(folder)
        try:
            size_cases = {}
            if mb in sizes:
                size_cases["databox"] = Case(f"rest {mb:g} MB", "databox run", [
                    PY, os.path.join(BENCH, "databox_rest.py"), binary, server.url, meta,
                    work]).run(runs, clean_work)
                size_cases["floor"] = Case(f"rest {mb:g} MB", "floor: DuckDB read_json (httpfs) "
                                           "-> Parquet", [PY, os.path.join(BENCH, "floor_rest.py"),
                                                          "http", server.url, folder, work]).run(
                    runs, clean_work)
                size_cases["floor-files"] = Case(
                    f"rest {mb:g} MB", "DuckDB read_json of the page files -> Parquet (no HTTP)",
                    [PY, os.path.join(BENCH, "floor_rest.py"), "files", "-", folder,
                     work]).run(runs, clean_work)
            if mb == dlt_mb:
                size_cases["dlt"] = Case(f"rest {mb:g} MB", "dlt rest_api (filesystem, iceberg)", [
                    PY_BENCH, os.path.join(BENCH, "dlt_rest.py"), server.url, meta,
                    work]).run(runs, clean_work)
        finally:
            server.stop()
            shutil.rmtree(folder, ignore_errors=True)
            if os.path.exists(server.port_file):
                os.remove(server.port_file)
        by_size[mb] = size_cases
        cases += size_cases.values()
        commands += [c.command().replace(server.url, "http://127.0.0.1:<port>")
                     for c in size_cases.values()]
    ingest_table(report, cases)
    report.add("", "Pages of 300 GBIF occurrence records (GBIF's offset/limit responses, with "
               "eBird's observation fields added; nested `gadm` objects, lists of strings and of "
               "objects) from `bench/gen_pages.py`, served by `bench/page_server.py` (Python "
               "`http.server`, keep-alive, one thread per connection) on the same 2 cores. databox "
               "and dlt follow the pagination page after page and normalize (nested objects "
               "flattened, lists to child tables: 4 tables); the floor knows every page URL and "
               "lets DuckDB fetch them in parallel, and keeps the nesting. databox's time is the "
               "whole `databox run` command; its peak RSS is the command's.", "")
    sized = [mb for mb in sorted(sizes) if "databox" in by_size.get(mb, {})]
    if not sized:
        return
    big = sized[-1]
    db = by_size[big]["databox"]
    r_floor = db.median("records_per_s") / by_size[big]["floor"].median("records_per_s")
    floors = ", ".join(
        f"{mb:g} MB {by_size[mb]['databox'].median('records_per_s') / by_size[mb]['floor'].median('records_per_s'):.2f}x"
        for mb in sized)
    report.add(f"databox/floor (records/s): {floors}.", "")
    report.target(f"(f) {big:g} MB REST source: >= 0.5x the floor", f"{r_floor:.2f}x",
                  r_floor >= 0.5)
    if "dlt" in by_size.get(dlt_mb, {}) and "databox" in by_size[dlt_mb]:
        r_dlt = (by_size[dlt_mb]["databox"].median("records_per_s") /
                 by_size[dlt_mb]["dlt"].median("records_per_s"))
        report.add(f"databox/dlt at {dlt_mb:g} MB (records/s): **{r_dlt:.1f}x**.", "")
        report.target(f"(f) {dlt_mb:g} MB REST source: >= 20x dlt", f"{r_dlt:.1f}x", r_dlt >= 20)
    rss = [max(by_size[mb]["databox"].rss_mb) for mb in sized]
    report.add("databox peak RSS by input size: " + ", ".join(
        f"{mb:g} MB -> {r:.0f} MB" for mb, r in zip(sized, rss)) + ".", "")
    report.target("(f) REST source: databox peak RSS <= 1 GB", f"{max(rss):.0f} MB",
                  max(rss) <= 1024)
    if len(sized) > 1:
        report.target(f"(f) REST source: memory flat ({sized[-1]:g} MB peak RSS <= 1.25x the "
                      f"{sized[0]:g} MB peak)", f"{rss[-1] / rss[0]:.2f}x", rss[-1] <= 1.25 * rss[0])


def read_env(path: str) -> dict:
    with open(path) as f:
        return dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)


def rest_append(report: Report, runs: int, tmp: str, commands: list, appends: int) -> None:
    """(g): rest_append_bench and pyiceberg's append, the same number of one-file appends of the
    same 10-row table, against each REST catalog server of the test suite (scripts/services:
    the reference adapter and Nessie, both on PostgreSQL, files on SeaweedFS; and SeaweedFS's
    own catalog, every request SigV4-signed)."""
    state = os.path.join(tmp, "services")
    os.makedirs(state)
    os.chmod(tmp, 0o711)  # PostgreSQL runs as user postgres when we are root
    weed = os.path.join(ROOT, ".deps", "seaweedfs", "bin", "weed")
    weed_version = (sh(f"{weed} version").split() + ["?"] * 3)[2]
    # (label, start command or None when start-s3 already runs it, env file, `stop` name).
    servers = (("Iceberg reference adapter (FALLBACK)", ["start-polaris", "--allow-fallback"],
                "polaris.env", "polaris"), ("Nessie 0.99.0", ["start-nessie"], "nessie.env",
                                            "nessie"),
               (f"SeaweedFS {weed_version} (SigV4)", None, "seaweedfs.env", None))
    rows = []
    try:
        out = subprocess.run([os.path.join(SERVICES, "start-s3"), "--dir", state],
                             capture_output=True, text=True)
        if out.returncode != 0:
            report.add("Not measured: the S3 server (SeaweedFS) did not start: "
                       f"{out.stderr.strip()[-300:]}", "")
            return
        s3_env = os.path.join(state, "s3.env")
        s3 = read_env(s3_env)
        for label, start, env_name, stop_name in servers:
            if start:
                out = subprocess.run([os.path.join(SERVICES, start[0]), "--dir", state] +
                                     start[1:], capture_output=True, text=True)
                if out.returncode != 0:
                    report.add(f"- {label}: not measured, it did not start: "
                               f"{(out.stderr or out.stdout).strip()[-300:]}")
                    continue
            cat_env = os.path.join(state, env_name)
            cat = read_env(cat_env)
            # The FALLBACK serves any warehouse name; Nessie and SeaweedFS only their own.
            warehouse = cat.get("CATALOG_WAREHOUSE") or "databox_lake"
            if cat.get("CATALOG_FALLBACK") == "1":
                warehouse = "databox_lake"
            # SeaweedFS's catalog: every request SigV4-signed with the S3 keys, and table names
            # starting with '_' stored with a prefix (as the REST integration tests configure it).
            signed = (["--sigv4", "--underscore-table-prefix", "dbx"]
                      if cat.get("CATALOG_SIGV4") == "1" else [])
            toml = os.path.join(tmp, f"rest-{env_name}.toml")
            subprocess.run([PY, os.path.join(ROOT, "tests", "integration", "refresh_rest",
                                             "make_rest_registry.py"), "--absolute-paths",
                            "--no-credential", *signed, "--uri", cat["CATALOG_URI"],
                            "--warehouse", warehouse, "--location",
                            f"s3://{s3['S3_BUCKET']}/warehouse", "--endpoint", s3["S3_ENDPOINT"],
                            "--region", s3["S3_REGION"], "--out", toml], check=True)
            env = dict(os.environ, AWS_ACCESS_KEY_ID=s3["S3_ACCESS_KEY_ID"],
                       AWS_SECRET_ACCESS_KEY=s3["S3_SECRET_ACCESS_KEY"])
            ours = Case(f"rest-append {label}", "databox",
                        [os.path.join(BUILD, "bench", "rest_append_bench"), toml, str(appends)],
                        env).run(runs)
            peer = Case(f"rest-append {label}", "pyiceberg",
                        [PY_BENCH, os.path.join(BENCH, "pyiceberg_rest_append.py"), cat_env,
                         s3_env, warehouse, str(appends)]).run(runs)
            rows.append((label, ours, peer))
            commands.extend([ours.command().replace(toml, "<registry of the server>"),
                             peer.command()])
            if stop_name:
                subprocess.run([os.path.join(SERVICES, "stop"), "--dir", state, stop_name],
                               capture_output=True)
    finally:
        subprocess.run([os.path.join(SERVICES, "stop"), "--dir", state], capture_output=True)

    def phase(case, name, key):
        return statistics.median(float(next(r for r in res if r.get("phase") == name)[key])
                                 for res in case.results)

    report.add(f"{appends} sequential appends per run; each loads the table, writes one 10-row "
               "Parquet file and commits it (pyiceberg: `load_table(...).append(arrow_table)`). "
               "Medians over runs of each run's p50/p95.", "",
               "| server | tool | append p50 ms | append p95 ms | all appends s | appends/s | "
               "peak RSS MB | load avg |", "|---|---|---|---|---|---|---|---|")
    for label, ours, peer in rows:
        for c in (ours, peer):
            report.add(f"| {label} | {c.tool} | {phase(c, 'append', 'p50_ms'):.1f} | "
                       f"{phase(c, 'append', 'p95_ms'):.1f} | {c.median('seconds'):.2f} | "
                       f"{c.median('appends_per_s'):.1f} | {statistics.median(c.rss_mb):.0f} | "
                       f"{'; '.join(c.loads)} |")
    report.add("", "Where databox's append time goes (p50 ms): table load (GET from the server), "
               "data file write, manifests (our manifest and manifest list, read/written on S3), "
               "the commit request (the server writes the new metadata file and swaps its "
               "pointer), and the storage floor (one 4 KB PUT to SeaweedFS). The server's share "
               "is the table load and the commit request (the two catalog round trips) over the "
               "append's p50.", "",
               "| server | load | data file | manifests | commit request | 4 KB PUT | "
               "server's share |", "|---|---|---|---|---|---|---|")
    for label, ours, _ in rows:
        server = phase(ours, "load", "p50_ms") + phase(ours, "commit_request", "p50_ms")
        report.add(f"| {label} | " + " | ".join(
            f"{phase(ours, p, 'p50_ms'):.1f}" for p in
            ("load", "write", "manifests", "commit_request", "s3_put_4kb")) +
            f" | {server:.1f} ms, {100 * server / phase(ours, 'append', 'p50_ms'):.0f} % |")
    report.add("")
    for label, ours, peer in rows:
        p50 = phase(ours, "append", "p50_ms")
        ratio = phase(peer, "append", "p50_ms") / p50
        report.target(f"(g) {label}: one-file append p50 <= 50 ms", f"{p50:.1f} ms", p50 <= 50)
        report.target(f"(g) {label}: >= 10x pyiceberg", f"{ratio:.1f}x", ratio >= 10)


PARTITION_DAY = "2026-02-15"  # the day (j) reads, inside the dated input's 90 days
SORTED = "day(observed_at), sorted"  # (j)'s partitioned layout with the sort order observed_at
READERS = ("duckdb", "trino", "trino-columns")  # (j)'s readers of one day (bench/day_query.py)


def partition(report: Report, runs: int, tmp: str, commands: list, rows: int, kind: str,
              binary: str) -> None:
    """(j): the dated CSV (bench/gen_inputs.py dated-mixed or dated) loaded by `databox ingest`
    into three tables
    of SeaweedFS's Iceberg REST catalog (SigV4), one unpartitioned, one partitioned by
    day(observed_at) and one partitioned so with the sort order observed_at (files written in
    it); then one day of each read through DuckDB's iceberg extension and Trino
    (bench/day_query.py), with the bytes each reader read."""
    state = os.path.join(tmp, "services-j")
    os.makedirs(state)
    work = os.path.join(tmp, "work-j")
    path = generate(kind, os.path.join(tmp, "inputs", f"{kind}.csv"), rows)
    started = []
    try:
        for name, cmd in (("SeaweedFS", ["start-s3"]),
                          ("Trino", ["start-trino", "--catalog", "seaweedfs"])):
            out = subprocess.run([os.path.join(SERVICES, cmd[0]), "--dir", state] + cmd[1:],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                report.add(f"Not measured: {name} did not start: "
                           f"{(out.stderr or out.stdout).strip()[-300:]}", "")
                return
            started.append(name)
        cat_env, s3_env = (os.path.join(state, f) for f in ("seaweedfs.env", "s3.env"))
        cat, s3 = read_env(cat_env), read_env(s3_env)
        toml = os.path.join(tmp, "rest-j.toml")
        subprocess.run([PY, os.path.join(ROOT, "tests", "integration", "refresh_rest",
                                         "make_rest_registry.py"), "--absolute-paths",
                        "--no-credential", "--sigv4", "--underscore-table-prefix", "dbx",
                        "--uri", cat["CATALOG_URI"], "--warehouse", cat["CATALOG_WAREHOUSE"],
                        "--location", f"s3://{s3['S3_BUCKET']}/warehouse", "--endpoint",
                        s3["S3_ENDPOINT"], "--region", s3["S3_REGION"], "--out", toml],
                       check=True)
        env = dict(os.environ, AWS_ACCESS_KEY_ID=s3["S3_ACCESS_KEY_ID"],
                   AWS_SECRET_ACCESS_KEY=s3["S3_SECRET_ACCESS_KEY"])
        layouts = (("unpartitioned", "dated_flat", []),
                   ("day(observed_at)", "dated_daily", ["--partition", "day(observed_at)"]),
                   (SORTED, "dated_daily_sorted",
                    ["--partition", "day(observed_at)", "--sort", "observed_at"]))
        # Every run replaces the table's rows, so each run loads the same rows into it.
        loads = [Case("partition load", label, [
            PY, os.path.join(BENCH, "databox_ingest.py"), binary, "csv", path, work,
            "--config", toml, "--table", f"raw_bench.{table}", "--write-disposition", "replace",
            *extra], env) for label, table, extra in layouts]
        interleave([(c, None) for c in loads], runs)
        query = os.path.join(BENCH, "day_query.py")
        trino_env = os.path.join(state, "trino.env")

        def reader(label, table, kind):
            cmd = [PY, query, kind, cat_env, s3_env, "raw_bench", table, PARTITION_DAY]
            trino = kind.startswith("trino")
            return Case(f"partition {kind}", label, cmd + ([trino_env] if trino else []))

        files = {label: reader(label, table, "files").run(1) for label, table, _ in layouts}
        reads = {(label, kind): reader(label, table, kind)
                 for kind in READERS for label, table, _ in layouts}
        for case in reads.values():  # warm-up, not counted: the JVM, Trino's metadata caches
            case.run(1)
            case.results, case.rss_mb, case.loads, case.stdouts = [], [], [], []
        interleave([(c, None) for c in reads.values()], runs)
    finally:
        subprocess.run([os.path.join(SERVICES, "stop"), "--dir", state], capture_output=True)

    def result(case, key):
        return case.results[0][-1][key]

    flat, daily, daily_sorted = loads
    mb = size_mb(path)
    order = ("in time order: the unpartitioned file's row groups each span a few hours, so "
             "their min/max statistics already let a reader skip most of them" if kind == "dated"
             else "in mixed time order (row i has the time of row i * 7919 mod N): every row "
             "group spans all 90 days, as in a load of many sources' late or backfilled rows")
    report.add(f"Input: `bench/gen_inputs.py {kind}`, {rows:,} rows, {mb:.1f} MB of CSV, "
               f"observed_at spread evenly over 90 days (~{rows // 90:,} rows a day), {order}. "
               "Each load "
               "is `databox ingest --write-disposition replace` into SeaweedFS's Iceberg REST "
               "catalog (SigV4-signed) with the S3 warehouse on the same SeaweedFS; the "
               "layouts' runs alternate; the sorted layout declares the sort order observed_at "
               "(`--sort`), so each of its files holds its rows in time order. Files and bytes are the table's current data files "
               "(pyiceberg).", "",
               "| layout | runs | median s | CPU s | rows/s | MB/s | data files | data MB | "
               "peak RSS MB | load avg |", "|---|---|---|---|---|---|---|---|---|---|")
    for c in loads:
        f = files[c.tool]
        report.add(f"| {c.tool} | {len(c.results)} | {c.median('seconds'):.2f} | "
                   f"{statistics.median(c.cpu_s):.2f} | "
                   f"{fmt(c.median('records_per_s'))} | {c.median('mb_per_s'):.1f} | "
                   f"{result(f, 'files')} | {int(result(f, 'bytes')) / 2**20:.1f} | "
                   f"{statistics.median(c.rss_mb):.0f} | {'; '.join(c.loads)} |")
    report.add("")
    for c in (daily, daily_sorted):
        ratio = c.median("records_per_s") / flat.median("records_per_s")
        report.add(f"{c.tool}/unpartitioned load throughput: **{ratio:.2f}x** (by CPU "
                   f"seconds: {cpu_ratio(c, flat):.2f}x).")
        report.target(f"(j) {c.tool} load >= 0.8x unpartitioned", f"{ratio:.2f}x", ratio >= 0.8)
    report.add("")
    report.add(f"One day ({PARTITION_DAY}, `count(*), avg(temperature)` where observed_at falls "
               "on it), after one warm-up query of each reader and table; DuckDB 1.5.5's iceberg "
               "extension (`iceberg_scan` of the current metadata file, httpfs; bytes read from "
               "its profiler's `total_bytes_read`), Trino 476 (one node, the Iceberg connector on "
               "the same catalog; bytes read are the query's `physicalInputBytes`; `trino-columns` is "
               "the same query with the session's `parquet_small_file_threshold` at 0B, so "
               "Trino reads only the needed column chunks of a file under 3 MB instead of all "
               "of it: shown, not judged). pyiceberg's "
               "plan for the same filter is given as the files a reader must open.", "",
               "| layout | reader | runs | median s | bytes read | of the table's bytes | rows "
               "| load avg |", "|---|---|---|---|---|---|---|---|")
    for label, _, _ in layouts:
        f = files[label]
        total = int(result(f, "bytes"))
        report.add(f"| {label} | pyiceberg plan | - | - | {result(f, 'day_files')} files, "
                   f"{int(result(f, 'day_bytes')):,} | "
                   f"{100 * int(result(f, 'day_bytes')) / total:.2f} % | - | - |")
        for kind in READERS:
            c = reads[(label, kind)]
            read = c.median("bytes_read")
            report.add(f"| {label} | {kind} | {len(c.results)} | {c.median('seconds'):.3f} | "
                       f"{read:,.0f} | {100 * read / total:.2f} % | {result(c, 'rows')} | "
                       f"{'; '.join(c.loads)} |")
    report.add("")
    for kind in READERS:
        flat_read = reads[("unpartitioned", kind)]
        for label in ("day(observed_at)", SORTED):
            daily_read = reads[(label, kind)]
            share = daily_read.median("bytes_read") / flat_read.median("bytes_read")
            time_ratio = daily_read.median("seconds") / flat_read.median("seconds")
            same = result(flat_read, "rows") == result(daily_read, "rows")
            report.add(f"{kind}: the {label} read read {100 * share:.2f} % of the bytes of the "
                       f"unpartitioned one in {time_ratio:.2f}x its time; both counted "
                       f"{'the same' if same else 'DIFFERENT'} rows.")
            if kind == "trino-columns":  # a reader setting changed: shown, not a verdict
                continue
            report.target(f"(j) {kind}: {label} one-day read <= 5 % of the unpartitioned bytes",
                          f"{100 * share:.2f} %", share <= 0.05 and same)
    report.add("")
    commands.extend(c.command().replace(toml, "<registry of the SeaweedFS catalog>")
                    for c in list(loads) + list(reads.values()))


if __name__ == "__main__":
    main()
