#!/usr/bin/env python3
"""Independent counter for Google Fit's Takeout (Python 3 stdlib only; never HealthPipe).

Activity CSVs (Takeout/Fit/Daily activity metrics/, before 2020 Daily Aggregations/):
- `Daily activity metrics.csv` / `Daily Summaries.csv`: `Date,…`, one row per day;
- `YYYY-MM-DD.csv`: `Start time,End time,…`, one row per quarter hour of the day the name gives.
Stored, each non-empty cell of these columns, whatever their order (one row per day or quarter hour):
  Step count -> step_count, Distance (m) -> distance (km = m / 1000), Calories (kcal) ->
  total_energy_burned, Move Minutes count -> active_minutes, Heart Points -> google_fit.heart_points,
  Heart Minutes -> google_fit.heart_minutes, Average weight (kg) -> body_mass.
Every other column (latitude, longitude, speeds, min/max weight and heart rate, activity durations)
is not imported.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [
    ("Daily Summaries.csv", "Asia/Kolkata", "Daily Aggregations/Daily Summaries.csv, 2015 (export of 2020)"),
    ("Daily activity metrics-2018.csv", "Asia/Kolkata", "Daily activity metrics.csv, weight first (export of 2021)"),
    ("Daily activity metrics-2019.csv", "Europe/Belgrade", "Daily activity metrics.csv with heart rate columns, 2019"),
    ("Daily activity metrics-2021.csv", "Asia/Yangon", "Daily activity metrics.csv with heart rate columns, 2021"),
    ("Daily activity metrics-2025.csv", "Asia/Kolkata", "Daily activity metrics.csv without heart rate, 2025"),
    ("2025-02-03.csv", None, "per-day quarter hours, clock times with +05:30, day from the file name"),
]

COLUMNS = {"Step count": ("step_count", 1), "Distance (m)": ("distance", 0.001),
           "Calories (kcal)": ("total_energy_burned", 1), "Move Minutes count": ("active_minutes", 1),
           "Heart Points": ("google_fit.heart_points", 1), "Heart Minutes": ("google_fit.heart_minutes", 1),
           "Average weight (kg)": ("body_mass", 1)}


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    assert header[0] == "Date" or header[:2] == ["Start time", "End time"], header[:2]
    out = {}
    for r in rows[1:]:
        if not any(c.strip() for c in r):
            continue
        for i, name in enumerate(header):
            if name in COLUMNS and r[i].strip():
                metric, scale = COLUMNS[name]
                t = out.setdefault(metric, {"count": 0, "sum": 0.0})
                t["count"] += 1
                t["sum"] += float(r[i]) * scale
    return dict(sorted(out.items()))


def compute():
    return {"files": [{"file": name, "vendor": "Google Fit", "language": "en", "layout": layout,
                       "format": "google-fit-activity", "timezone": tz, "measurements": count(HERE / name), "events": {}}
                      for name, tz, layout in FILES]}


if __name__ == "__main__":
    main(HERE, compute, count)
