#!/usr/bin/env python3
"""The chart views on ten years of 5-minute CGM with meals and insulin: a Dexcom Clarity export
from ../shared/tools/gen_cgm_csv.py (about 1.05M readings, 3 meals, 3 boluses, 1 basal dose and
exercise on half the days) imported with `healthpipe import`. Times whole processes:

  chart day (the last day, and a day in the middle of the ten years), chart agp (14 days),
  chart days (90 days), page (14 days; also its size in bytes),

side by side in the same run with the floors: `healthpipe --version` (process start) and sqlite3
reading the same day's readings (process start + the query). Goals (issue 12): chart day <= 100 ms,
chart agp <= 150 ms, page <= 500 ms and <= 1.5 MB.

Usage: python3 Benchmarks/bench_charts.py [--repeat 7] [--keep DIR] [--baseline BIN]
Needs a release build (swift build -c release --product healthpipe). --baseline times another build's
`chart day` and `page` in the same run (e.g. the previous commit's), side by side."""
import argparse, os, statistics, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import ROOT, arguments, clarity_csv, measure, work_folder

BIN = os.path.join(ROOT, ".build", "release", "healthpipe")
ROWS = 1_080_000  # ten years of EGV rows plus the events between them


def main():
    ap = arguments(7, keep=True, baseline="whose chart day and page run in the same loop")
    a = ap.parse_args()
    work = work_folder(a.keep, "hp-charts-")
    csv = os.path.join(work, "clarity-10y.csv")
    db = os.path.join(work, "tenyears.sqlite")
    if not os.path.exists(db):
        clarity_csv(csv, ROWS)
        subprocess.run([BIN, "import", csv, "--db", db, "--timezone", "Europe/London", "--subject", "bench"], check=True,
                       stdout=subprocess.DEVNULL)
    q = lambda sql: subprocess.run(["sqlite3", db, sql], capture_output=True, text=True, check=True).stdout.strip()
    readings = int(q("SELECT count(*) FROM measurements WHERE metric = 'glucose'"))
    events = q("SELECT group_concat(kind || ' ' || n, ', ') FROM (SELECT kind, count(*) AS n FROM events GROUP BY kind)")
    first, last = q("SELECT min(day), max(day) FROM daily_summaries").split("|")
    middle = q(f"SELECT day FROM daily_summaries WHERE day >= date('{first}', '+1826 days') ORDER BY day LIMIT 1")
    print(f"database: {readings:,} glucose readings, events: {events}, days {first} … {last}, "
          f"{os.path.getsize(db) / 2**20:.0f} MiB", file=sys.stderr)

    page = os.path.join(work, "health.html")
    day_sql = ("SELECT start, value FROM measurements WHERE subject = 'bench' AND metric = 'glucose' AND source = 'iOS G6' "
               f"AND start >= strftime('%s', '{middle}') - 50400 AND start < strftime('%s', '{middle}') + 136800")
    jobs = [
        ("floor: healthpipe --version (process start)", [BIN, "--version"]),
        ("floor: sqlite3, one day's readings (±14 h) by key", ["sqlite3", db, day_sql]),
        ("chart day (last day)", [BIN, "chart", "day", "--db", db]),
        (f"chart day --date {middle} (middle of ten years)", [BIN, "chart", "day", "--db", db, "--date", middle]),
        ("chart day --model ridge-treatments", [BIN, "chart", "day", "--db", db, "--date", middle, "--model", "ridge-treatments"]),
        ("chart agp (14 days)", [BIN, "chart", "agp", "--db", db]),
        ("chart days (90 days)", [BIN, "chart", "days", "--db", db]),
        ("page (14 days)", [BIN, "page", "--db", db, "-o", page]),
    ]
    if a.baseline:
        base_page = os.path.join(work, "baseline.html")
        jobs += [("baseline: chart day (last day)", [a.baseline, "chart", "day", "--db", db]),
                 ("baseline: page (14 days)", [a.baseline, "page", "--db", db, "-o", base_page])]
    runs = {name: [] for name, _ in jobs}
    for _ in range(a.repeat):  # interleaved, so every job sees the same machine load
        for name, cmd in jobs:
            wall, rss, code = measure(cmd)
            if code != 0:
                sys.exit(f"failed: {' '.join(cmd)}")
            runs[name].append((wall, rss))
    print("| job | wall ms, median (min–max) | peak RSS MiB |")
    print("|---|---|---|")
    for name, _ in jobs:
        walls = [w * 1000 for w, _ in runs[name]]
        print(f"| {name} | {statistics.median(walls):.0f} ({min(walls):.0f}–{max(walls):.0f}) | {max(r for _, r in runs[name]):.0f} |")
    print(f"\npage size: {os.path.getsize(page):,} bytes ({os.path.getsize(page) / 2**20:.2f} MiB)")
    if a.baseline:
        print(f"baseline page size: {os.path.getsize(base_page):,} bytes ({os.path.getsize(base_page) / 2**20:.2f} MiB)")


if __name__ == "__main__":
    main()
