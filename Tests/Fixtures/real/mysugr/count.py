#!/usr/bin/env python3
"""Independent counter for mySugr logbook CSV exports (Python 3 stdlib only; never HealthPipe).

Reads each file as the app writes it: quoted cells, one row per logbook entry, header words in the
app's language, decimal point (en) or comma (da), dates "Aug 7, 2017" (en) or "14-02-2021" (da).
Per row: blood sugar (meter or manual entries) -> blood_glucose (mmol/L x 18.0156 rounded to whole mg/dL); pen, basal, pump, meal
and correction insulin -> one insulin event each (zero skipped); carbohydrates -> a meal; activity
minutes -> exercise; meal description and note -> the events' note, or a note event when the row
has no event. Distinct natural keys are counted (docs/schema.md).
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import kind_totals, write_or_check  # noqa: E402
FILES = [
    ("mysugr-en-us-mgdl.csv", "en", "mySugr app export, English (US), mg/dL, month-name dates, 12-hour clock", "America/New_York"),
    ("mysugr-da-mmol.csv", "da", "mySugr app export, Danish, mmol/L with decimal comma, dd-mm-yyyy", "Europe/Copenhagen"),
]
WORDS = {  # per language: date, time, glucose (unit), insulin columns (subtype), carbs, activity, texts
    "en": dict(date="Date", time="Time", glucose=("Blood Glucose Measurement (mg/dL)", "mg/dL"),
               insulin=[("Insulin Injection Units (Pen)", "pen"), ("Basal Injection Units", "basal"),
                        ("Insulin Injection Units (pump)", "pump"), ("Insulin (Meal)", "bolus"),
                        ("Insulin (Correction)", "correction")],
               carbs="Meal Carbohydrates (Grams, Factor 1)", activity="Activity Duration (Minutes)",
               texts=["Meal Descriptions", "Note"], dates="%b %d, %Y", times="%I:%M:%S %p", comma=False),
    "da": dict(date="Dato", time="Tid", glucose=("Blodsukkermåling (mmol/L)", "mmol/L"),
               insulin=[("Bolusinjektion enheder (pen)", "pen"), ("Basalinjektion enheder", "basal"),
                        ("Bolusinjektion enheder (pumpe)", "pump"), ("Bolus (måltid)", "bolus"),
                        ("Insulin (korrektion)", "correction")],
               carbs="Kulhydrater mad (Gram, faktor 1)", activity="Aktivitetsvarighed (minutter)",
               texts=["Måltidsbeskrivelser", "Notat"], dates="%d-%m-%Y", times="%H:%M:%S", comma=True),
}


def number(text, comma):
    text = text.strip()
    if not text:
        return None
    return float(text.replace(",", ".") if comma else text)


def count(path, lang):
    w = WORDS[lang]
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    glucose, events = {}, {}
    for r in rows[1:]:
        if not any(c.strip() for c in r):
            continue
        start = datetime.datetime.strptime(r[col[w["date"]]] + " " + r[col[w["time"]]], w["dates"] + " " + w["times"])
        g = number(r[col[w["glucose"][0]]], w["comma"])
        if g is not None:
            glucose[start] = round(g * 18.0156) if w["glucose"][1] == "mmol/L" else g
        row_events = []
        for name, subtype in w["insulin"]:
            u = number(r[col[name]], w["comma"])
            if u:
                row_events.append(("insulin", subtype, start, u))
        c = number(r[col[w["carbs"]]], w["comma"])
        if c:
            row_events.append(("meal", "", start, c))
        a = number(r[col[w["activity"]]], w["comma"])
        if a:
            row_events.append(("exercise", "", start, None))
        texts = [r[col[t]].strip() for t in w["texts"] if r[col[t]].strip()]
        if texts and not row_events:
            row_events.append(("note", "", start, None))
        for e in row_events:
            events[e] = True
    out = {"measurements": {}, "events": {}}
    if glucose:
        out["measurements"]["blood_glucose"] = {"count": len(glucose), "sum": float(sum(glucose.values()))}
    out["events"] = kind_totals(events)
    return out


def compute():
    files = []
    for name, lang, layout, zone in FILES:
        c = count(HERE / name, lang)
        files.append({"file": name, "vendor": "mySugr", "language": lang, "layout": layout, "format": "mysugr",
                      "timezone": zone, "measurements": c["measurements"], "events": c["events"]})
    return {"files": files}


if __name__ == "__main__":
    write_or_check(HERE, compute())
