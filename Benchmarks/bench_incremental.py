#!/usr/bin/env python3
"""The derived-data rule's cost (issue 9), side by side in one run (the machine is noisy: compare pairs).

Usage: python3 Benchmarks/bench_incremental.py [--repeat 3] [--years 10] [--apple 1000000]

1. One more week into ten years: a generated Clarity export of ten years of 5-minute CGM (~1.05M
   readings, with meals, insulin and exercise) is cut into "everything but the last week" and "the
   last week" — at midnight (a weekly export) and at 09:00 (the day of the cut is in both files, so
   it must be recomputed from the store). Times importing the week into a copy of the ten-year
   database, and the same week into an empty database (parsing, writing and summarising the week
   alone); the difference is what the rule costs.
2. Re-importing an unchanged Apple Health export (1M records) into the database its first import
   made, against that first import.
"""
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from measure import SHARED, WORK, arguments, build_healthpipe, fresh, measure  # noqa: E402


def clarity(rows):
    path = os.path.join(WORK, f"clarity-{rows}.csv")
    if not os.path.exists(path):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_cgm_csv.py"), "-n", str(rows), "-o", path])
    return path


def cut(path, at):
    """Writes <path>-before-<at>.csv (rows before `at`) and <path>-after-<at>.csv (rows from `at` on, plus
    the day of `at` from midnight when `at` is not midnight: the overlap of two real exports)."""
    before, after = f"{path}-before-{at}.csv", f"{path}-after-{at}.csv"
    if os.path.exists(before) and os.path.exists(after):
        return before, after
    day = at[:10] + "T00:00:00"
    with open(path, encoding="utf-8-sig", newline="") as f, open(before, "w", newline="") as b, open(after, "w", newline="") as a:
        header = f.readline()
        b.write(header), a.write(header)
        for line in f:
            ts = line.split(",", 2)[1].strip('"')
            if not ts:
                b.write(line), a.write(line)     # untimed metadata rows go to both
                continue
            if ts < at:
                b.write(line)
            if ts >= day:
                a.write(line)
    return before, after


def last_timestamp(path):
    with open(path, "rb") as f:
        f.seek(-4096, 2)
        last = f.read().decode("utf-8", "replace").strip().splitlines()[-1]
    return last.split(",")[1].strip('"')


def main():
    ap = arguments(3)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--apple", type=int, default=1_000_000, help="Apple export records (0: skip)")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    hp = build_healthpipe()
    big = clarity(int(a.years * 365.25 * 288 * 1.003))
    end = last_timestamp(big)
    from datetime import datetime, timedelta
    week_start = (datetime.fromisoformat(end) - timedelta(days=7)).date().isoformat()
    base = os.path.join(WORK, "incr-base.sqlite")
    db = os.path.join(WORK, "incr.sqlite")
    empty = os.path.join(WORK, "incr-empty.sqlite")

    print(f"\nOne more week into {a.years} years ({os.path.basename(big)}, last reading {end}); median of {a.repeat}\n")
    print("| cut | week rows | into the ten-year database, s | into an empty database, s | difference, s | refresh |")
    print("|---|---|---|---|---|---|")
    for at in [week_start + "T00:00:00", week_start + "T09:00:00"]:
        before, after = cut(big, at)
        fresh(base)
        subprocess.check_call([hp, "import", before, "--db", base, "--timezone", "UTC", "--quiet"])
        into, alone, refreshed = [], [], ""
        for _ in range(a.repeat):
            fresh(db)
            shutil.copyfile(base, db)
            w, _, _ = measure([hp, "import", after, "--db", db, "--timezone", "UTC", "--quiet"])
            into.append(w)
            out = subprocess.run(["sqlite3", db, "SELECT count(*) FROM daily_summaries"], capture_output=True, text=True).stdout
            fresh(empty)
            w, _, _ = measure([hp, "import", after, "--db", empty, "--timezone", "UTC", "--quiet"])
            alone.append(w)
        report = os.path.join(WORK, "incr-report.json")
        fresh(db)
        shutil.copyfile(base, db)
        subprocess.check_call([hp, "import", after, "--db", db, "--timezone", "UTC", "--quiet", "--report", report])
        import json
        stages = json.load(open(report))["stages"]
        # The refresh's source re-reads the stored readings of the days it recomputes (with their margin).
        refreshed = next((f'{s["records_out"]:,} readings re-read' for s in stages if s["name"] == "refresh db"), "none")
        rows = sum(1 for _ in open(after)) - 1
        i, e = statistics.median(into), statistics.median(alone)
        print(f"| {at[11:16]} | {rows:,} | {i:.3f} | {e:.3f} | {i - e:+.3f} | {refreshed} |")

    if a.apple:
        xml = os.path.join(WORK, f"apple-{a.apple}.xml")
        if not os.path.exists(xml):
            subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_apple_health.py"), "-n", str(a.apple), "-o", xml])
        apple = os.path.join(WORK, "incr-apple.sqlite")
        first, again = [], []
        for _ in range(a.repeat):
            fresh(apple)
            first.append(measure([hp, "import", xml, "--db", apple, "--quiet"])[0])
            again.append(measure([hp, "import", xml, "--db", apple, "--quiet"])[0])
        f, r = statistics.median(first), statistics.median(again)
        print(f"\nRe-importing an unchanged Apple export ({a.apple:,} records), median of {a.repeat} pairs\n")
        print("| job | wall s | ÷ first import |")
        print("|---|---|---|")
        print(f"| first import | {f:.2f} | 1.00 |")
        print(f"| the same export again | {r:.2f} | {r / f:.2f} |")


if __name__ == "__main__":
    main()
