#!/usr/bin/env python3
"""Independent counter for Withings' account data export (Python 3 stdlib only; never HealthPipe).

CSV files with a header, in the account's language (English or German). A stored row is keyed by
(metric, start, end); an empty cell stores nothing.
- weight.csv: `Date` (wall clock, quoted, no offset: placed in the file's zone), Weight / Gewicht,
  Fat mass / Fettmasse, Bone mass / Knochenmasse, Muscle mass / Muskelmasse, Hydration / Wasseranteil,
  in kg or lb (x 0.45359237): body_mass, body_fat_mass, bone_mass, muscle_mass, body_water_mass (kg).
- bp.csv: Date, Heart rate / Herzfrequenz -> heart_rate, Systolic / Systole and Diastolic / Diastole
  -> blood_pressure_systolic / _diastolic (mmHg).
- sleep.csv: from / von to to / bis (ISO with offset): light / leicht, deep / tief, rem, awake / wach
  seconds -> sleep_total.asleep_core, .asleep_deep, .asleep_rem, .awake (minutes); wake up /
  Aufwachen -> withings.wake_ups; Duration to sleep / to wake up (s) and Snoring (s) -> minutes;
  Snoring episodes; Average heart rate, Heart rate (min), (max) -> withings.sleep_heart_rate_*, 0 is
  no value.
- raw_<device>_<series>.csv: `start,duration,value`, start ISO with offset, duration and value JSON
  arrays of one length; element i starts after the durations before it and lasts its own. The series
  is in the file's name (Withings' README.txt gives the units): *_hr -> heart_rate (bpm), *_steps ->
  step_count, *_sleep-state -> sleep_analysis.awake (0), .asleep_core (1 light), .asleep_deep (2),
  .asleep_rem (3) in minutes.
A comment cell would be a note event; these files have none.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, json, pathlib, sys
from zoneinfo import ZoneInfo

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [
    ("weight-en.csv", "withings-weight", "en", "Europe/Berlin", "weight.csv, kg"),
    ("weight-lb.csv", "withings-weight", "en", "America/Los_Angeles", "weight.csv, lb"),
    ("weight-de.csv", "withings-weight", "de", "Europe/Berlin", "weight.csv, kg"),
    ("bp-en.csv", "withings-bp", "en", "Europe/Berlin", "bp.csv, heart rate only"),
    ("bp-de.csv", "withings-bp", "de", "Europe/Berlin", "bp.csv, heart rate only"),
    ("sleep-en.csv", "withings-sleep", "en", None, "sleep.csv, ISO times with offset"),
    ("sleep-de.csv", "withings-sleep", "de", None, "sleep.csv, ISO times with offset"),
    ("raw_hr_hr.csv", "withings-raw", "en", None, "raw heart rate, value arrays"),
    ("raw_tracker_steps.csv", "withings-raw", "en", None, "raw steps per minute, value arrays"),
    ("raw_tracker_sleep-state.csv", "withings-raw", "en", None, "raw sleep states, value arrays"),
]
LB = 0.45359237
BODY = {"Weight": "body_mass", "Gewicht": "body_mass", "Fat mass": "body_fat_mass", "Fettmasse": "body_fat_mass",
        "Bone mass": "bone_mass", "Knochenmasse": "bone_mass", "Muscle mass": "muscle_mass",
        "Muskelmasse": "muscle_mass", "Hydration": "body_water_mass", "Wasseranteil": "body_water_mass"}
BP = {"Heart rate": "heart_rate", "Herzfrequenz": "heart_rate", "Systolic": "blood_pressure_systolic",
      "Systole": "blood_pressure_systolic", "Diastolic": "blood_pressure_diastolic", "Diastole": "blood_pressure_diastolic"}
SLEEP = {"light (s)": "sleep_total.asleep_core", "leicht (s)": "sleep_total.asleep_core",
         "deep (s)": "sleep_total.asleep_deep", "tief (s)": "sleep_total.asleep_deep", "rem (s)": "sleep_total.asleep_rem",
         "awake (s)": "sleep_total.awake", "wach (s)": "sleep_total.awake", "Duration to sleep (s)": "withings.duration_to_sleep",
         "Duration to wake up (s)": "withings.duration_to_wake_up", "Snoring (s)": "withings.snoring"}
COUNTS = {"wake up": "withings.wake_ups", "Aufwachen": "withings.wake_ups", "Snoring episodes": "withings.snoring_episodes"}
HEART = {"Average heart rate": "withings.sleep_heart_rate_average", "Heart rate (min)": "withings.sleep_heart_rate_min",
         "Heart rate (max)": "withings.sleep_heart_rate_max"}


STATES = ["sleep_analysis.awake", "sleep_analysis.asleep_core", "sleep_analysis.asleep_deep", "sleep_analysis.asleep_rem"]


def raw(path):
    stored = {}
    series = pathlib.Path(path).stem.lower()
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        at = int(datetime.datetime.fromisoformat(r["start"]).timestamp())
        for d, v in zip(json.loads(r["duration"]), json.loads(r["value"])):
            if series.endswith("_hr"):
                metric, value = "heart_rate", float(v)
            elif series.endswith("_steps"):
                metric, value = "step_count", float(v)
            else:
                metric, value = STATES[v], d / 60
            stored.setdefault(metric, {})[(at, at + d)] = value
            at += d
    return {m: {"count": len(v), "sum": float(sum(v.values()))} for m, v in sorted(stored.items())}


def count(path, zone="UTC"):
    if pathlib.Path(path).name.startswith("raw_"):
        return raw(path)
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    stored = {}

    def put(metric, key, value):
        stored.setdefault(metric, {})[key] = value
    for r in rows:
        if "from" in r or "von" in r:
            start = datetime.datetime.fromisoformat(r.get("from") or r["von"]).timestamp()
            end = datetime.datetime.fromisoformat(r.get("to") or r["bis"]).timestamp()
            for column, cell in r.items():
                if cell == "" or column is None:
                    continue
                if column in SLEEP:
                    put(SLEEP[column], (start, end), float(cell) / 60)
                elif column in COUNTS:
                    put(COUNTS[column], (start, end), float(cell))
                elif column in HEART and float(cell) != 0:
                    put(HEART[column], (start, end), float(cell))
            continue
        at = datetime.datetime.strptime(r["Date"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=ZoneInfo(zone)).timestamp()
        for column, cell in r.items():
            if cell == "" or column in ("Date", "Comments", "Kommentare"):
                continue
            name, _, unit = column.partition(" (")
            if name in BODY:
                put(BODY[name], at, float(cell) * (LB if unit == "lb)" else 1))
            else:
                put(BP[column], at, float(cell))
    return {m: {"count": len(v), "sum": float(sum(v.values()))} for m, v in sorted(stored.items())}


def compute():
    return {"files": [{"file": name, "vendor": "Withings", "language": lang, "layout": layout, "format": fmt,
                       "timezone": tz, "measurements": count(HERE / name, tz or "UTC"), "events": {}}
                      for name, fmt, lang, tz, layout in FILES]}


if __name__ == "__main__":
    main(HERE, compute, count)
