#!/usr/bin/env python3
"""Independent counter for Oura's trends CSV (Python 3 stdlib only; never HealthPipe).

One row per `date` (a day: its local midnight in the file's zone); `None` or an empty cell is no
value. Stored per day: Readiness / Sleep / Activity Score -> oura.readiness, oura.sleep_score,
oura.activity_score; Average HRV -> heart_rate_variability_rmssd; Lowest Resting Heart Rate ->
resting_heart_rate; Average Resting Heart Rate -> oura.average_resting_heart_rate; Temperature
Deviation (°C) -> oura.temperature_deviation; Respiratory Rate -> respiratory_rate; Steps ->
step_count; Total Burn / Activity Burn -> total_energy_burned / active_energy_burned; Total Bedtime,
Total Sleep, Light, Deep, REM Sleep Duration, Awake Time (seconds) -> sleep_total.in_bed, .asleep,
.asleep_core, .asleep_deep, .asleep_rem, .awake (minutes); Sleep Latency (s) -> oura.sleep_latency
(min); Sleep Efficiency -> oura.sleep_efficiency. Other columns are not stored.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [("oura_2026-05-22_2026-07-23_trends.csv", "oura-trends", "America/Los_Angeles", "trends CSV, one row per day")]
NAMES = {"Readiness Score": "oura.readiness", "Sleep Score": "oura.sleep_score", "Activity Score": "oura.activity_score",
         "Average HRV": "heart_rate_variability_rmssd", "Lowest Resting Heart Rate": "resting_heart_rate",
         "Average Resting Heart Rate": "oura.average_resting_heart_rate",
         "Temperature Deviation (°C)": "oura.temperature_deviation", "Respiratory Rate": "respiratory_rate",
         "Steps": "step_count", "Total Burn": "total_energy_burned", "Activity Burn": "active_energy_burned",
         "Sleep Efficiency": "oura.sleep_efficiency"}
SECONDS = {"Total Bedtime": "sleep_total.in_bed", "Total Sleep Duration": "sleep_total.asleep",
           "Light Sleep Duration": "sleep_total.asleep_core", "Deep Sleep Duration": "sleep_total.asleep_deep",
           "REM Sleep Duration": "sleep_total.asleep_rem", "Awake Time": "sleep_total.awake", "Sleep Latency": "oura.sleep_latency"}


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = [h.strip() for h in rows[0]]
    stored = {}
    for r in rows[1:]:
        for column, cell in zip(header, r):
            if cell in ("", "None"):
                continue
            if column in NAMES:
                stored.setdefault(NAMES[column], {})[r[0]] = float(cell)
            elif column in SECONDS:
                stored.setdefault(SECONDS[column], {})[r[0]] = float(cell) / 60
    return {m: {"count": len(v), "sum": float(sum(v.values()))} for m, v in sorted(stored.items())}


def compute():
    return {"files": [{"file": name, "vendor": "Oura", "language": "en", "layout": layout, "format": fmt, "timezone": tz,
                       "measurements": count(HERE / name), "events": {}} for name, fmt, tz, layout in FILES]}


if __name__ == "__main__":
    main(HERE, compute, count)
