import sys
#!/usr/bin/env python3
"""Independent counter for Diabeloop YourLoops exports (Python 3 stdlib only; never HealthPipe).

The export is a zip of CSVs, one per data type, comma-separated, CRLF, UTC ISO times ("…Z"):
  cbg.csv    timestamp,timezoneOffSet,value,units,cgmModel      -> glucose (mg/dL rows)
  bolus.csv  timestamp,…,type,delivered,required,…              -> insulin: normal/biphasic -> bolus,
                                                                   pen -> pen (delivered, not 0)
  meals.csv  timestamp,…,carbsValue,carbUnit,…,bolus.delivered,… -> meal (carbsValue g, not 0); the
                                                                   bolus.* cells repeat bolus.csv
  physicalActivities.csv timestamp,…,duration.value,duration.unit,… -> exercise (duration not 0)
Distinct natural keys are counted (docs/schema.md).
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import kind_totals, write_or_check  # noqa: E402

FILES = [
    ("yourloops-cbg.csv", "yourloops-cgm", "YourLoops export cbg.csv, mg/dL, UTC"),
    ("yourloops-bolus.csv", "yourloops-bolus", "YourLoops export bolus.csv, UTC"),
    ("yourloops-meals.csv", "yourloops-meals", "YourLoops export meals.csv, grams, UTC"),
    ("yourloops-physicalactivities.csv", "yourloops-activity", "YourLoops export physicalActivities.csv, seconds, UTC"),
]
SUBTYPE = {"normal": "bolus", "biphasic": "bolus", "pen": "pen"}


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    glucose, events = {}, {}
    for r in rows:
        t = r["timestamp"]
        if "cgmModel" in r and r["units"] == "mg/dL":
            glucose[t] = float(r["value"])
        elif "delivered" in r and r["type"] in SUBTYPE:
            u = float(r["delivered"])
            if u:
                events[("insulin", SUBTYPE[r["type"]], t, u)] = True
        elif "duration.value" in r:
            seconds = float(r["duration.value"]) * {"seconds": 1, "minutes": 60, "hours": 3600}[r["duration.unit"]]
            if seconds:
                events[("exercise", "", t, None)] = True
        elif "carbsValue" in r and r["carbUnit"] == "grams":
            c = float(r["carbsValue"])
            if c:
                events[("meal", "", t, c)] = True
    out = {"measurements": {}, "events": {}}
    if glucose:
        out["measurements"]["glucose"] = {"count": len(glucose), "sum": float(sum(glucose.values()))}
    out["events"] = kind_totals(events)
    return out


def compute():
    return {"files": [{"file": name, "vendor": "Diabeloop YourLoops", "language": "en", "layout": layout, "format": fmt,
                       "timezone": None, **count(HERE / name)} for name, fmt, layout in FILES]}


if __name__ == "__main__":
    write_or_check(HERE, compute())
