#!/usr/bin/env python3
"""CGM metrics, side by side in one run (shared, noisy machine: compare ratios).

Usage: python3 Benchmarks/bench_metrics.py [--copies 26] [--repeat 3]

Input: ../shared/reference/simglucose/all.csv (10 patients x 14 days) repeated `copies` times, each copy
shifted by 14 days, so the default is 10 patients x 364 days = 1,048,320 rows (cached in bench-work/).
Jobs, each on the same file:
  healthpipe metrics --per day --json    (every metric of docs/analytics.md, per patient and day)
  healthpipe metrics --per period --json (one set per patient over the year, with the AGP)
  numpy baseline --per day               (csv module + numpy: mean, SD, quartiles, band %, LBGI/HBGI,
                                          the 5-min grid by np.interp and CONGA1 -- a subset, no MAGE)
  healthpipe import (default pipeline, metric sets per day stored) vs. the same pipeline with
  `daily: per: none` via `healthpipe run`, to show what the metric sets cost an import.
Prints a Markdown table of median wall seconds and peak RSS.
"""
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from measure import SHARED, WORK, arguments, build_healthpipe, fresh, measure, median_table  # noqa: E402


NUMPY_BASELINE = r'''
import csv, sys, math
import numpy as np
rows = {}
with open(sys.argv[1], newline="") as f:
    r = csv.reader(f); next(r)
    for ts, patient, gl, _, _ in r:
        if gl:
            rows.setdefault((patient, ts[:10]), []).append((ts, float(gl)))
out = 0
for (patient, day), rs in rows.items():
    g = np.array([v for _, v in rs])
    t = np.array([int(ts[11:13]) * 60 + int(ts[14:16]) + int(ts[17:19]) / 60 for ts, _ in rs])
    mean = g.mean(); sd = g.std(ddof=1)
    q = np.quantile(g, [0, .25, .5, .75, 1])
    bands = [(g < 54).mean(), (g < 70).mean(), ((g >= 70) & (g <= 180)).mean(), (g > 180).mean(), (g > 250).mean()]
    f = 1.509 * (np.log(g) ** 1.084 - 5.381)
    lbgi = 10 * np.mean(np.minimum(f, 0) ** 2); hbgi = 10 * np.mean(np.maximum(f, 0) ** 2)
    grid = np.interp(np.arange(5, 1441, 5), t, g, left=np.nan, right=np.nan)
    d = grid[12:] - grid[:-12]
    conga1 = np.nanstd(d, ddof=1)
    out += 1
print(out)
'''

PIPELINE = """sources:
  file: {{ type: simglucose, path: '{src}' }}
transforms:
  bands: {{ type: classify, inputs: [file], preset: seeds }}
  daily: {{ type: daily, inputs: [bands], per: none }}
sinks:
  db: {{ type: sqlite, inputs: [bands, daily], path: '{db}' }}
"""


def make_input(copies):
    path = os.path.join(WORK, f"simglucose_x{copies}.csv")
    if os.path.exists(path):
        return path
    os.makedirs(WORK, exist_ok=True)
    src = os.path.join(SHARED, "reference", "simglucose", "all.csv")
    with open(src) as f:
        header = f.readline()
        lines = [l.rstrip("\n").split(",", 1) for l in f]
    parsed = [(datetime.datetime.fromisoformat(ts), rest) for ts, rest in lines]
    by_patient = {}
    for ts, rest in parsed:
        by_patient.setdefault(rest.split(",", 1)[0], []).append((ts, rest))
    with open(path + ".tmp", "w") as out:
        out.write(header)
        for patient, rs in by_patient.items():
            for c in range(copies):
                shift = datetime.timedelta(days=14 * c)
                for ts, rest in rs:
                    out.write((ts + shift).isoformat() + "," + rest + "\n")
    os.replace(path + ".tmp", path)
    return path



def main():
    ap = arguments(3, size=("--copies", 26, "copies of the sample CGM file"))
    a = ap.parse_args()
    hp = build_healthpipe()
    src = make_input(a.copies)
    rows = sum(1 for _ in open(src)) - 1
    db = os.path.join(WORK, "metrics_bench.sqlite")
    pipeline = os.path.join(WORK, "import_no_metric_sets.yaml")
    with open(pipeline, "w") as f:
        f.write(PIPELINE.format(src=src, db=db))
    jobs = {
        "healthpipe metrics --per day --json": lambda: measure([hp, "metrics", "--input", src, "--per", "day", "--json"]),
        "healthpipe metrics --per period --json": lambda: measure([hp, "metrics", "--input", src, "--per", "period", "--json"]),
        "numpy baseline, per day (subset of metrics)": lambda: measure([sys.executable, "-c", NUMPY_BASELINE, src]),
        "healthpipe import (metric sets per day)": lambda: (fresh(db), measure([hp, "import", src, "--db", db]))[1],
        "healthpipe run, daily per: none": lambda: (fresh(db), measure([hp, "run", pipeline]))[1],
    }
    results = {k: [] for k in jobs}
    for _ in range(a.repeat):
        for name, job in jobs.items():
            results[name].append(job())
    print(f"Input: {rows:,} rows ({os.path.getsize(src) / 2**20:.0f} MiB), median of {a.repeat}\n")
    median_table(results, "wall s", 2)


if __name__ == "__main__":
    main()
