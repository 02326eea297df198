import sys
#!/usr/bin/env python3
"""Independent counter for Nutrisense exports (Python 3 stdlib only; never HealthPipe).

The file: a line "Nutrisense,<name>,…", then `class,value,time,length,photo_url,description,
occurred_at,body,updated_at,started_at,ended_at,created_by`; each row's `class` says what it is.
Times are naive local M/D/YY H:MM (`occurred_at`, else `updated_at`). Read: GlucoseMeasurement ->
glucose, BloodGlucoseMeasurement -> blood_glucose, StepCountMeasurement -> step_count,
ExerciseActivity -> exercise, Meal -> meal (no carbs), Note -> note, KetoneMeasurement -> ketone
(mmol/L), HeartRateMeasurement -> heart_rate; a row of any other class (running distance without a
unit, blood pressure as text) must be quarantined (an unknown row type: nothing dropped unsaid). Distinct natural keys are counted
(docs/schema.md); events without an amount share amount 0.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import write_or_check  # noqa: E402

FILES = [("nutrisense-export.csv", "en", "Nutrisense app export, one row per logged item (class column)", "America/Los_Angeles")]
METRICS = {"GlucoseMeasurement": "glucose", "BloodGlucoseMeasurement": "blood_glucose", "StepCountMeasurement": "step_count",
           "KetoneMeasurement": "ketone", "HeartRateMeasurement": "heart_rate"}
EVENTS = {"ExerciseActivity": "exercise", "Meal": "meal", "Note": "note"}


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    head = next(i for i, r in enumerate(rows) if r[:2] == ["class", "value"])
    col = {name: i for i, name in enumerate(rows[head])}
    measured, events, quarantined = {}, set(), 0
    for r in rows[head + 1:]:
        kind = r[col["class"]]
        if kind not in METRICS and kind not in EVENTS:
            quarantined += 1
            continue
        when = r[col["occurred_at"]] or r[col["updated_at"]]
        start = datetime.datetime.strptime(when, "%m/%d/%y %H:%M")
        text = r[col["description"]].strip() or r[col["body"]].strip()
        if kind in METRICS:
            measured.setdefault(METRICS[kind], {})[start] = float(r[col["value"]])
            if text:
                events.add(("note", start))
        else:
            events.add((EVENTS[kind], start))
    out = {"measurements": {m: {"count": len(v), "sum": float(sum(v.values()))} for m, v in sorted(measured.items())},
           "events": {}, "quarantined": quarantined}
    for kind in sorted({k for k, _ in events}):
        n = sum(1 for k, _ in events if k == kind)
        out["events"][kind] = {"count": n, "sum": 0.0} if kind == "meal" else {"count": n}
    return out


def compute():
    files = []
    for name, lang, layout, zone in FILES:
        c = count(HERE / name)
        files.append({"file": name, "vendor": "Nutrisense", "language": lang, "layout": layout, "format": "nutrisense",
                      "timezone": zone, "measurements": c["measurements"], "events": c["events"],
                      "quarantined": c["quarantined"]})
    return {"files": files}


if __name__ == "__main__":
    write_or_check(HERE, compute())
