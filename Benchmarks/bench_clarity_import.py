#!/usr/bin/env python3
"""Clarity CSV → SQLite, side by side in one run (this machine is shared and noisy: compare ratios).

Usage: python3 Benchmarks/bench_clarity_import.py [--rows 3000000] [--repeat 3]

Generates the Clarity export with ../shared/tools/gen_cgm_csv.py (cached in bench-work/), builds the
C reference programs with ../shared/tools/floors/build.sh, and times, each on a new database:
  healthpipe import (release build, upsert keys, classify + daily summary),
  csv_to_sqlite threads unique (C reference), sqlite3 .import --csv into an untyped table,
  Python csv + sqlite3 (executemany, one transaction), and sqlite-utils insert --csv if installed.
Prints a Markdown table of median wall seconds, peak RSS and ratios.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from measure import WORK, arguments, build_floors, build_healthpipe, clarity_csv, fresh, interleave, ratio_table  # noqa: E402


PY_IMPORT = r'''
import csv, sqlite3, sys
src, db = sys.argv[1], sys.argv[2]
con = sqlite3.connect(db)
con.execute("PRAGMA journal_mode=WAL"); con.execute("PRAGMA synchronous=NORMAL")
con.execute("CREATE TABLE cgm(ts TEXT, kind TEXT, subtype TEXT, value, source TEXT, UNIQUE(kind, ts, source))")
def rows():
    with open(src, newline="", encoding="utf-8-sig") as f:
        r = csv.reader(f); next(r)
        for row in r:
            if len(row) > 7 and row[1]:
                yield (row[1], row[2], row[3], row[7] or row[8] or row[9], row[6])
with con:
    con.executemany("INSERT INTO cgm VALUES(?,?,?,?,?) ON CONFLICT DO NOTHING", rows())
'''



def main():
    ap = arguments(3, size=("--rows", 3_000_000, "rows in the generated export"))
    ap.add_argument("--slow-once", action="store_true", help="run sqlite-utils (minutes) in the first round only")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    csv_path = clarity_csv(os.path.join(WORK, f"clarity-{a.rows}.csv"), a.rows)
    floors = build_floors()
    hp = build_healthpipe()
    db = os.path.join(WORK, "bench.sqlite")

    jobs = {
        "healthpipe import (upsert, classify + daily)": lambda: [hp, "import", csv_path, "--db", db, "--timezone", "UTC"],
        "C csv_to_sqlite threads unique": lambda: [os.path.join(floors, "csv_to_sqlite"), "threads", "unique", csv_path, db],
        "sqlite3 .import --csv (untyped, no key)": lambda: ["sqlite3", "-batch", db, f".import --csv {csv_path} cgm"],
        "Python csv + sqlite3 (upsert)": lambda: [sys.executable, "-c", PY_IMPORT, csv_path, db],
    }
    if shutil.which("sqlite-utils"):
        jobs["sqlite-utils insert --csv"] = lambda: ["sqlite-utils", "insert", db, "cgm", csv_path, "--csv"]

    results = interleave(jobs, a.repeat, before=lambda: fresh(db),
                         skip=lambda round_, name: a.slow_once and round_ > 0 and name.startswith("sqlite-utils"))
    size = os.path.getsize(csv_path) / 1e6
    print(f"\nClarity CSV, {a.rows:,} rows, {size:.0f} MB; median of {a.repeat} runs\n")
    ratio_table(results, "C csv_to_sqlite threads unique", "sqlite3 .import", "sqlite3 .import --csv (untyped, no key)")


if __name__ == "__main__":
    main()
