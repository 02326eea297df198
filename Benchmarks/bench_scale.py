#!/usr/bin/env python3
"""Scale-out, side by side in one run (this machine is shared and noisy: compare ratios).

Usage: python3 Benchmarks/bench_scale.py [--participants 100] [--days 14] [--rows 3000000] [--repeat 3] [--only cohort|postgres|append]
                                        [--binary healthpipe] [--baseline other-healthpipe]

1. A cohort of --participants (examples/spark/generate_cohort.py, --days of 5-minute CGM each) imported
   to partitioned NDJSON, interleaved:
     Spark local[2]: examples/spark/cohort.py (Spark start, the per-participant `healthpipe run` tasks,
       manifest checks, Spark SQL cohort tables, Parquet) — total and its import stage;
     xargs -P 2: the same per-participant `healthpipe run` commands on the same pipelines.
   The engine's overhead in percent = (Spark − xargs) / xargs.
2. The 3M-row Clarity export (../shared/tools/gen_cgm_csv.py, cached in bench-work/) imported into a new
   SQLite database and into a new PostgreSQL 15 database (a throw-away server on 127.0.0.1, default
   settings: fsync and synchronous_commit on), `healthpipe import … --db` both; goal ≤ 2× SQLite.
   With --baseline, another build's PostgreSQL import and re-import run interleaved with these (before/after).
   In each round also the floor: psql COPYs the rows the import stored back into a new store's tables
   (server work only: no parsing, no derived rows) — what no client can go below.
3. Appending: the same export split in two halves by time; the first half imported (untimed), then the
   second half timed — the new readings of a subject already stored and the refresh of the days they
   touch — into SQLite and PostgreSQL (and the --baseline build's PostgreSQL), interleaved.
Release build. Prints Markdown tables of median wall seconds.
"""
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from measure import ROOT, SHARED, WORK, arguments, build_healthpipe, fresh, measure  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "examples", "spark"))
import cohort as driver  # noqa: E402


def bench_cohort(hp, a):
    inputs, out_spark, out_xargs = (os.path.join(WORK, n) for n in ("cohort-in", "cohort-spark", "cohort-xargs"))
    shutil.rmtree(inputs, ignore_errors=True)
    subprocess.check_call([sys.executable, os.path.join(ROOT, "examples/spark/generate_cohort.py"), inputs,
                           "--participants", str(a.participants), "--days", str(a.days)])
    people = driver.participants(inputs)
    readings = sum(1 for _, files in people for f in files for _ in open(f))
    pipelines = os.path.join(WORK, "cohort-pipelines")
    shutil.rmtree(pipelines, ignore_errors=True)
    os.makedirs(pipelines)
    for pid, files in people:  # the pipelines cohort.py writes on the executors
        with open(os.path.join(pipelines, pid + ".yml"), "w") as f:
            f.write(driver.pipeline(pid, files, os.path.join(out_xargs, "parts"), os.path.join(out_xargs, "_quarantine", pid + ".ndjson"), "UTC"))
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable)
    spark, stage, xargs = [], [], []
    for _ in range(a.repeat):
        shutil.rmtree(out_spark, ignore_errors=True)
        start = time.perf_counter()
        run = subprocess.run([sys.executable, os.path.join(ROOT, "examples/spark/cohort.py"), "--master", "local[2]", "--binary", hp,
                              "--input", inputs, "--output", out_spark, "--shards", "8"], env=env, capture_output=True, text=True)
        spark.append(time.perf_counter() - start)
        if run.returncode:
            sys.exit(run.stderr[-3000:])
        stage.append(float(re.search(r"import stage ([0-9.]+)", run.stderr).group(1)))
        shutil.rmtree(out_xargs, ignore_errors=True)
        cmd = f"ls {pipelines}/*.yml | xargs -P 2 -n 1 sh -c 'env -i {hp} run \"$0\" --quiet'"
        wall, _, code = measure(["sh", "-c", cmd])
        if code:
            sys.exit("xargs run failed")
        xargs.append(wall)
    s, st, x = statistics.median(spark), statistics.median(stage), statistics.median(xargs)
    print(f"\nCohort: {len(people)} participants, {readings:,} CSV lines, median of {a.repeat} interleaved runs\n")
    print("| job | wall s (median) | vs xargs -P 2 |")
    print("|---|---|---|")
    print(f"| xargs -P 2: per-participant `healthpipe run` → partitioned NDJSON | {x:.2f} | — |")
    print(f"| Spark local[2], import stage (same commands as tasks + manifests) | {st:.2f} | {100 * (st - x) / x:+.0f} % |")
    print(f"| Spark local[2], whole driver (start, import, checks, SQL tables, Parquet) | {s:.2f} | {100 * (s - x) / x:+.0f} % |")


class Server:
    """A throw-away PostgreSQL server (default durability settings), stopped by its PID."""

    def __init__(self):
        bins = sorted(d for d in os.listdir("/usr/lib/postgresql"))[-1]
        self.bin = f"/usr/lib/postgresql/{bins}/bin"
        self.dir = tempfile.mkdtemp(prefix="hp-bench-pg-", dir=WORK)
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        if os.getuid() == 0:
            shutil.chown(self.dir, "postgres")
        data = os.path.join(self.dir, "data")
        subprocess.check_call(self.as_postgres + [f"{self.bin}/initdb", "-D", data, "-U", "hp", "--auth=trust", "-E", "UTF8",
                                                  "--no-locale"], stdout=subprocess.DEVNULL)
        subprocess.check_call(self.as_postgres + [f"{self.bin}/pg_ctl", "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "start",
                                                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.pid = int(open(os.path.join(data, "postmaster.pid")).readline())

    def url(self, db):
        return f"postgresql://hp@127.0.0.1:{self.port}/{db}"

    def fresh(self, db):
        for sql in (f"DROP DATABASE IF EXISTS {db}", f"CREATE DATABASE {db}"):
            subprocess.check_call([f"{self.bin}/psql", self.url("postgres"), "-qc", sql], stderr=subprocess.DEVNULL)

    def dump_rows(self, db, tables):
        """The schema of `db` and the rows of `tables` (COPY text), saved once: what the floor copies back."""
        schema = os.path.join(self.dir, "schema.sql")
        with open(schema, "w") as f:
            subprocess.check_call([f"{self.bin}/pg_dump", "--schema-only", self.url(db)], stdout=f)
        files = []
        for t in tables:
            path = os.path.join(self.dir, t + ".copy")
            subprocess.check_call([f"{self.bin}/psql", self.url(db), "-qc", f"\\copy {t} TO '{path}'"])
            files.append((t, path))
        return schema, files

    def copy_floor(self, saved):
        """PostgreSQL's own share of a first import: the stored rows COPYed by psql into the tables of a new
        store (primary keys and indexes as the import finds them), one transaction per table, same durability."""
        schema, files = saved
        self.fresh("floor")
        subprocess.check_call([f"{self.bin}/psql", self.url("floor"), "-q", "-f", schema], stdout=subprocess.DEVNULL)
        copies = [arg for t, path in files for arg in ("-c", f"\\copy {t} FROM '{path}'")]
        return measure([f"{self.bin}/psql", self.url("floor"), "-q"] + copies)

    def stop(self):
        os.kill(self.pid, 2)
        while True:
            try:
                os.kill(self.pid, 0)
                time.sleep(0.1)
            except ProcessLookupError:
                break
        shutil.rmtree(self.dir, ignore_errors=True)


def bench_postgres(hp, a):
    csv_path = os.path.join(WORK, f"clarity-{a.rows}.csv")
    if not os.path.exists(csv_path):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_cgm_csv.py"), "-n", str(a.rows), "-o", csv_path])
    db = os.path.join(WORK, "bench.sqlite")
    server = Server()
    try:
        results = {"sqlite": [], "postgres": [], "postgres re-import": [], "sqlite re-import": [], "postgres floor": []}
        if a.baseline:
            results.update({"postgres baseline": [], "postgres baseline re-import": []})
        floor = None
        for _ in range(a.repeat):
            fresh(db)
            results["sqlite"].append(measure([hp, "import", csv_path, "--db", db, "--timezone", "UTC"]))
            results["sqlite re-import"].append(measure([hp, "import", csv_path, "--db", db, "--timezone", "UTC"]))
            for binary, name in [(hp, "postgres")] + ([(os.path.abspath(a.baseline), "postgres baseline")] if a.baseline else []):
                server.fresh("bench")
                results[name].append(measure([binary, "import", csv_path, "--db", server.url("bench"), "--timezone", "UTC"]))
                results[name + " re-import"].append(measure([binary, "import", csv_path, "--db", server.url("bench"), "--timezone", "UTC"]))
                floor = floor or server.dump_rows("bench", ["measurement_series", "measurement_rows", "events"])
            results["postgres floor"].append(server.copy_floor(floor))
    finally:
        server.stop()
    med = {k: statistics.median(w for w, _, _ in v) for k, v in results.items()}
    rss = {k: max(r for _, r, _ in v) for k, v in results.items()}
    print(f"\nClarity CSV, {a.rows:,} rows, {os.path.getsize(csv_path) / 1e6:.0f} MB → new store; median of {a.repeat} interleaved runs\n")
    print("| job | wall s (median) | peak RSS MiB | ÷ SQLite |")
    print("|---|---|---|---|")
    rows = [("sqlite", "sqlite"), ("postgres", "sqlite"), ("sqlite re-import", "sqlite re-import"), ("postgres re-import", "sqlite re-import")]
    if a.baseline:
        rows += [("postgres baseline", "sqlite"), ("postgres baseline re-import", "sqlite re-import")]
    for k, base in rows:
        print(f"| healthpipe{' (baseline)' if 'baseline' in k else ''} import --db {'postgresql://…' if k.startswith('postgres') else 'new.sqlite'}"
              f"{' (again: adds 0)' if 're-import' in k else ''} | {med[k]:.2f} | {rss[k]:.0f} | {med[k] / med[base]:.2f} |")
    print(f"| floor: psql `\\copy` of the stored readings and events into the new store's tables (server only) "
          f"| {med['postgres floor']:.2f} | — | {med['postgres floor'] / med['sqlite']:.2f} |")


def halves(csv_path):
    """The export split in two halves by time (the second with the column header only), cached. Streamed:
    a child's peak RSS on Linux starts from this process's at fork, so the file is never held here."""
    first, second = csv_path + "-first-half.csv", csv_path + "-second-half.csv"
    if not os.path.exists(second):
        with open(csv_path, encoding="utf-8") as f:
            header = f.readline()
            data = total = 1
            for line in f:
                total += 1
                if data == 1 and '"EGV"' in line:
                    data = total - 1
        mid = data + (total - data) // 2
        with open(csv_path, encoding="utf-8") as f, open(first, "w", encoding="utf-8") as a, \
                open(second, "w", encoding="utf-8") as b:
            b.write(header)
            for i, line in enumerate(f):
                (a if i < mid else b).write(line)
    return first, second


def bench_append(hp, a):
    csv_path = os.path.join(WORK, f"clarity-{a.rows}.csv")
    if not os.path.exists(csv_path):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_cgm_csv.py"), "-n", str(a.rows), "-o", csv_path])
    first, second = halves(csv_path)
    args = ["--timezone", "UTC", "--subject", "bench"]
    db = os.path.join(WORK, "bench.sqlite")
    server = Server()
    builds = [(hp, "postgres")] + ([(os.path.abspath(a.baseline), "postgres baseline")] if a.baseline else [])
    results = {"sqlite": []} | {name: [] for _, name in builds}
    try:
        for _ in range(a.repeat):
            fresh(db)
            measure([hp, "import", first, "--db", db] + args)
            results["sqlite"].append(measure([hp, "import", second, "--db", db] + args))
            for binary, name in builds:
                server.fresh("bench")
                measure([binary, "import", first, "--db", server.url("bench")] + args)
                results[name].append(measure([binary, "import", second, "--db", server.url("bench")] + args))
    finally:
        server.stop()
    med = {k: statistics.median(w for w, _, _ in v) for k, v in results.items()}
    rss = {k: max(r for _, r, _ in v) for k, v in results.items()}
    print(f"\nClarity CSV, {a.rows:,} rows in two halves: the second appended to a store holding the first; "
          f"median of {a.repeat} interleaved runs\n")
    print("| job | wall s (median) | peak RSS MiB | ÷ SQLite |")
    print("|---|---|---|---|")
    for k in results:
        print(f"| healthpipe{' (baseline)' if 'baseline' in k else ''} import second half --db "
              f"{'postgresql://…' if k.startswith('postgres') else 'store.sqlite'} | {med[k]:.2f} | {rss[k]:.0f} | {med[k] / med['sqlite']:.2f} |")


def main():
    ap = arguments(3, size=("--rows", 3_000_000, "CGM rows of the PostgreSQL import"),
                           baseline="(release) whose PostgreSQL runs are interleaved (before/after)")
    ap.add_argument("--participants", type=int, default=100)
    ap.add_argument("--days", type=int, default=14)
    ap.add_argument("--only", choices=["cohort", "postgres", "append"])
    ap.add_argument("--binary", help="a release healthpipe (default: build one)")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    hp = os.path.abspath(a.binary) if a.binary else build_healthpipe()
    if a.only in (None, "cohort"):
        bench_cohort(hp, a)
    if a.only in (None, "postgres"):
        bench_postgres(hp, a)
    if a.only in (None, "append"):
        bench_append(hp, a)


if __name__ == "__main__":
    main()
