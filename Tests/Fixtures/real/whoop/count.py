#!/usr/bin/env python3
"""Independent counter for WHOOP's data export (Python 3 stdlib only; never HealthPipe).

Every file is a CSV with a header; `Cycle timezone` (`UTC-04:00`) is the offset every time of the
row is written in. A stored row is keyed by (metric, start, end) in UTC; an empty cell stores nothing.
- physiological_cycles.csv: one row per cycle, stored at `Wake onset` (the cycle's start when it has
  none). Recovery score % -> whoop.recovery, Resting heart rate (bpm) -> resting_heart_rate, Heart rate
  variability (ms) -> heart_rate_variability_rmssd, Skin temp (celsius) -> skin_temperature, Blood
  oxygen % -> oxygen_saturation (a fraction: / 100), Day Strain -> whoop.day_strain, Energy burned (cal)
  -> total_energy_burned, Max HR / Average HR -> whoop.max_heart_rate / whoop.average_heart_rate. The
  sleep columns are sleeps.csv's (not stored from this file).
- sleeps.csv: one row per sleep, from `Sleep onset` to `Wake onset`. In bed duration (min) ->
  sleep_analysis.in_bed (Nap false) or sleep_analysis.nap (Nap true); Asleep, Light, Deep (SWS), REM,
  Awake duration (min) -> sleep_total.asleep, .asleep_core, .asleep_deep, .asleep_rem, .awake; Sleep
  performance %, need, debt, efficiency %, consistency % -> whoop.sleep_*; Respiratory rate (rpm) ->
  respiratory_rate.
- workouts.csv: one row per workout, `Workout start time` to `Workout end time`: one exercise event;
  Activity Strain -> whoop.activity_strain, Energy burned (cal) -> workout_energy_burned, Max/Average HR
  -> whoop.workout_max/average_heart_rate, HR Zone N % -> whoop.hr_zone_N, Distance (meters) ->
  workout_distance, Altitude gain/change (meters) -> whoop.altitude_gain/change.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, pathlib, re, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [
    ("physiological_cycles.csv", "whoop-cycles", "cycles: recovery, HRV, strain; UTC offset per row"),
    ("physiological_cycles-2.csv", "whoop-cycles", "cycles of a second person, whole file; UTC offset per row"),
    ("sleeps.csv", "whoop-sleeps", "sleeps and naps with stage minutes; UTC offset per row"),
    ("workouts.csv", "whoop-workouts", "workouts with strain, zones, distance; UTC offset per row"),
]

CYCLE = {"Recovery score %": "whoop.recovery", "Resting heart rate (bpm)": "resting_heart_rate",
         "Heart rate variability (ms)": "heart_rate_variability_rmssd", "Skin temp (celsius)": "skin_temperature",
         "Blood oxygen %": "oxygen_saturation", "Day Strain": "whoop.day_strain",
         "Energy burned (cal)": "total_energy_burned", "Max HR (bpm)": "whoop.max_heart_rate",
         "Average HR (bpm)": "whoop.average_heart_rate"}
SLEEP = {"Asleep duration (min)": "sleep_total.asleep", "Light sleep duration (min)": "sleep_total.asleep_core",
         "Deep (SWS) duration (min)": "sleep_total.asleep_deep", "REM duration (min)": "sleep_total.asleep_rem",
         "Awake duration (min)": "sleep_total.awake", "Sleep performance %": "whoop.sleep_performance",
         "Respiratory rate (rpm)": "respiratory_rate", "Sleep need (min)": "whoop.sleep_need",
         "Sleep debt (min)": "whoop.sleep_debt", "Sleep efficiency %": "whoop.sleep_efficiency",
         "Sleep consistency %": "whoop.sleep_consistency"}
WORKOUT = {"Activity Strain": "whoop.activity_strain", "Energy burned (cal)": "workout_energy_burned",
           "Max HR (bpm)": "whoop.workout_max_heart_rate", "Average HR (bpm)": "whoop.workout_average_heart_rate",
           **{f"HR Zone {n} %": f"whoop.hr_zone_{n}" for n in range(1, 6)},
           "Distance (meters)": "workout_distance", "Altitude gain (meters)": "whoop.altitude_gain",
           "Altitude change (meters)": "whoop.altitude_change"}


def utc(text, zone):
    sign, h, m = re.fullmatch(r"UTC([+-])(\d\d):(\d\d)", zone).groups()
    offset = (1 if sign == "+" else -1) * (int(h) * 3600 + int(m) * 60)
    local = datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    return int(local.timestamp()) - offset


def count(path):
    path = pathlib.Path(path)
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    stored, events = {}, set()
    for r in rows:
        zone = r["Cycle timezone"]
        if "Recovery score %" in r:
            start = end = utc(r["Wake onset"] or r["Cycle start time"], zone)
            names = CYCLE
        elif "Nap" in r:
            start, end = utc(r["Sleep onset"], zone), utc(r["Wake onset"], zone)
            session = "sleep_analysis.nap" if r["Nap"] == "true" else "sleep_analysis.in_bed"
            names = {"In bed duration (min)": session, **SLEEP}
        else:
            start, end = utc(r["Workout start time"], zone), utc(r["Workout end time"], zone)
            events.add((start, float(r["Duration (min)"])))
            names = WORKOUT
        for column, metric in names.items():
            if r[column] != "":
                value = float(r[column]) / (100 if metric == "oxygen_saturation" else 1)
                stored.setdefault(metric, {})[(start, end)] = value
    out = {m: {"count": len(v), "sum": float(sum(v.values()))} for m, v in sorted(stored.items())}
    return out, ({"exercise": {"count": len(events)}} if events else {})


def compute():
    files = []
    for name, fmt, layout in FILES:
        measurements, events = count(HERE / name)
        files.append({"file": name, "vendor": "WHOOP", "language": "en", "layout": layout, "format": fmt,
                      "timezone": None, "measurements": measurements, "events": events})
    return {"files": files}


if __name__ == "__main__":
    main(HERE, compute, count)
