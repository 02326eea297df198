#!/usr/bin/env python3
"""Independent counter for Diaguard backup CSVs (Python 3 stdlib only; never HealthPipe).

The file (Diaguard's CsvExport with isBackup): `;`-separated, quoted cells. `"meta";"<db version>"`,
then `tag` and `food` (name;brand;ingredients;carbs per 100 g) rows — lists, not records — then each
`entry` (yyyy-MM-dd HH:mm:ss local time; note) followed by its rows:
  measurement;bloodsugar;mg/dL -> blood_glucose          measurement;pulse;bpm -> heart_rate
  measurement;insulin;bolus;correction;basal -> one insulin event per non-zero dose
  measurement;meal;carbs -> a meal (0 g: none)           measurement;activity;minutes -> exercise (0: none)
  measurement;hba1c / weight / pressure (sys;dia) / oxygen_saturation (% -> fraction)
  entryTag;name -> a note                                 foodEaten;food;grams -> a meal of the food,
  carbs = grams x the food's carbs / 100 when the backup lists the food (else no amount).
An entry's non-empty note is a note. Distinct natural keys are counted (docs/schema.md).
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import kind_totals, main  # noqa: E402

FILES = [
    ("diaguard-seed-backup.csv", "en", "Diaguard backup, database version 23, the app's seed (2024)"),
    ("diaguard-en-backup.csv", "en", "Diaguard backup, database version 23, tags and a food list (2020)"),
    ("diaguard-backup-2020.csv", "en", "Diaguard backup, database version 23, a food eaten that is not in the list (2020)"),
]
METRIC = {"bloodsugar": "blood_glucose", "pulse": "heart_rate", "hba1c": "hba1c", "weight": "body_mass"}


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter=";"))
    assert rows[0][0] == "meta"
    foods, at = {}, None
    measurements, events = {}, {}
    for r in rows[1:]:
        key = r[0]
        if key == "food":
            foods[r[1]] = float(r[4])
        elif key == "entry":
            at = datetime.datetime.strptime(r[1], "%Y-%m-%d %H:%M:%S")
            if len(r) > 2 and r[2].strip():
                events[("note", "", at, 0.0)] = True
        elif key == "entryTag":
            events[("note", "tag", at, 0.0)] = True
        elif key == "foodEaten":
            grams = float(r[2])
            carbs = round(foods[r[1]] * grams / 100, 1) if r[1] in foods else 0.0
            events[("meal", "food", at, carbs)] = True
        elif key == "measurement":
            category, values = r[1], [float(v) for v in r[2:]]
            if category in METRIC:
                measurements[(METRIC[category], at)] = values[0]
            elif category == "pressure":
                measurements[("blood_pressure_systolic", at)] = values[0]
                measurements[("blood_pressure_diastolic", at)] = values[1]
            elif category == "oxygen_saturation":
                measurements[("oxygen_saturation", at)] = values[0] / 100
            elif category == "insulin":
                for subtype, v in zip(("bolus", "correction", "basal"), values):
                    if v > 0:
                        events[("insulin", subtype, at, v)] = True
            elif category == "meal" and values[0] > 0:
                events[("meal", "", at, values[0])] = True
            elif category == "activity" and values[0] > 0:
                events[("exercise", "", at, values[0])] = True
    out = {"measurements": {}, "events": kind_totals(events)}
    for (metric, _), v in sorted(measurements.items(), key=lambda kv: kv[0][0]):
        t = out["measurements"].setdefault(metric, {"count": 0, "sum": 0.0})
        t["count"] += 1
        t["sum"] = round(t["sum"] + v, 6)
    return out


def compute():
    return {"files": [{"file": name, "vendor": "Diaguard", "language": lang, "layout": layout, "format": "diaguard",
                       "timezone": "Europe/Berlin", **count(HERE / name)} for name, lang, layout in FILES]}


if __name__ == "__main__":
    main(HERE, compute, count)
