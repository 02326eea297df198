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
All Data/<data source>.json: {"Data Source": id, "Data Points": [{fitValue: [{value: {intVal|fpVal}}],
startTimeNanos, endTimeNanos, dataTypeName}]}: each point of these types is one row over
[start, end) in whole seconds (nanoseconds floored), its one value:
  step_count.delta -> step_count, heart_rate.bpm -> heart_rate, weight -> body_mass (kg),
  height -> height (cm = m * 100), calories.expended -> total_energy_burned, distance.delta ->
  distance (km = m / 1000), active_minutes -> active_minutes, heart_minutes -> google_fit.heart_points;
points sharing metric, start and end in a file are one stored row (the last one's value). Other
types are not imported.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, json, pathlib, sys

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
ALL_DATA = [
    ("derived_com.google.step_count.delta_com.google(1).json", "steps, Google's estimate (estimated_steps)"),
    ("derived_com.google.step_count.delta_com.google.json", "steps, the Fit app's stream (top_level)"),
    ("derived_com.google.weight_com.google.android.g.json", "weight, one point"),
    ("derived_com.google.height_com.google.android.g.json", "height in metres, one point"),
    ("derived_com.google.active_minutes_com.google.a(1).json", "Move Minutes, per minute"),
    ("derived_com.google.heart_minutes_com.google.an(1).json", "Heart Points (intensity) per minute"),
    ("derived_com.google.calories.expended_com.googl(1).json", "calories, merged"),
    ("derived_com.google.distance.delta_com.google.a(3).json", "distance in metres, merged"),
    ("derived_com.google.activity.segment_com.google(1).json", "activity segments (not imported)"),
    ("derived_com.google.location.sample_com.google.(2).json", "location samples, four values (not imported)"),
    ("derived_com.google.internal.sleep_schedule_com.json", "a data source without points"),
]
TYPES = {"com.google.step_count.delta": ("step_count", 1), "com.google.heart_rate.bpm": ("heart_rate", 1),
         "com.google.weight": ("body_mass", 1), "com.google.height": ("height", 100),
         "com.google.calories.expended": ("total_energy_burned", 1), "com.google.distance.delta": ("distance", 0.001),
         "com.google.active_minutes": ("active_minutes", 1), "com.google.heart_minutes": ("google_fit.heart_points", 1)}

COLUMNS = {"Step count": ("step_count", 1), "Distance (m)": ("distance", 0.001),
           "Calories (kcal)": ("total_energy_burned", 1), "Move Minutes count": ("active_minutes", 1),
           "Heart Points": ("google_fit.heart_points", 1), "Heart Minutes": ("google_fit.heart_minutes", 1),
           "Average weight (kg)": ("body_mass", 1)}


def all_data(path):
    data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    rows = {}
    for p in data["Data Points"]:
        if p["dataTypeName"] not in TYPES:
            continue
        metric, scale = TYPES[p["dataTypeName"]]
        value = p["fitValue"][0]["value"]
        v = value["intVal"] if "intVal" in value else value["fpVal"]
        rows[(metric, int(p["startTimeNanos"]) // 10**9, int(p["endTimeNanos"]) // 10**9)] = v * scale
    out = {}
    for (metric, _, _), v in rows.items():
        t = out.setdefault(metric, {"count": 0, "sum": 0.0})
        t["count"] += 1
        t["sum"] += v
    return dict(sorted(out.items()))


def count(path):
    if str(path).endswith(".json"):
        return all_data(path)
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
                      for name, tz, layout in FILES]
            + [{"file": "All Data/" + name, "vendor": "Google Fit", "language": "en", "layout": layout,
                "format": "google-fit-all-data", "timezone": "Asia/Kolkata",
                "measurements": all_data(HERE / "All Data" / name), "events": {}} for name, layout in ALL_DATA]}


if __name__ == "__main__":
    main(HERE, compute, count)
