import sys
#!/usr/bin/env python3
"""Independent counter for Glooko CSV exports (Python 3 stdlib only; never HealthPipe).

Glooko's "Export to CSV" is a zip of CSVs, one per data type. Each file: a preamble line
"Name:<patient>,Datumsbereich:<from> - <to>" (German; "Date Range" in English), then the header, then
rows, newest first; German files write times "DD.MM.YYYY HH:MM" and decimals with a comma, in quotes.
  cgm_data_N.csv   Zeitstempel,CGM-Glukosewert (mg/dl),Seriennummer        -> glucose
  bg_data_N.csv    Zeitstempel,Glukosewert (mg/dl),Manuelles Lesen,…        -> blood_glucose
  bolus_data_N.csv Zeitstempel,Insulin-Typ,…,Kohlenhydrataufnahme (g),…,Abgegebenes Insulin (E),…
                   -> one bolus insulin event (delivered, not 0) and one meal (carbs, not 0)
Distinct natural keys are counted (docs/schema.md).
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import kind_totals, write_or_check  # noqa: E402

FILES = [
    ("glooko-de-cgm.csv", "glooko-cgm", "Glooko export cgm_data_1.csv, German, mg/dl, decimal comma"),
    ("glooko-de-bg.csv", "glooko-bg", "Glooko export bg_data_1.csv, German, mg/dl, decimal comma"),
    ("glooko-de-bolus.csv", "glooko-bolus", "Glooko export Insulin data/bolus_data_1.csv, German, decimal comma"),
]


def num(text):
    text = text.strip()
    return float(text.replace(",", ".")) if text else None


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][0].startswith("Name:")
    col = {name: i for i, name in enumerate(rows[1])}
    measurements, events = {}, {}
    glucose = {}
    for r in rows[2:]:
        if not any(c.strip() for c in r):
            continue
        t = datetime.datetime.strptime(r[col["Zeitstempel"]], "%d.%m.%Y %H:%M")
        if "CGM-Glukosewert (mg/dl)" in col:
            glucose.setdefault("glucose", {})[t] = num(r[col["CGM-Glukosewert (mg/dl)"]])
        elif "Glukosewert (mg/dl)" in col:
            glucose.setdefault("blood_glucose", {})[t] = num(r[col["Glukosewert (mg/dl)"]])
        else:
            u = num(r[col["Abgegebenes Insulin (E)"]])
            if u:
                events[("insulin", "bolus", t, u)] = True
            c = num(r[col["Kohlenhydrataufnahme (g)"]])
            if c:
                events[("meal", "", t, c)] = True
    for metric, values in glucose.items():
        measurements[metric] = {"count": len(values), "sum": float(sum(values.values()))}
    out = {"measurements": measurements, "events": {}}
    out["events"] = kind_totals(events, summed=None)
    return out


def compute():
    files = []
    for name, fmt, layout in FILES:
        c = count(HERE / name)
        files.append({"file": name, "vendor": "Glooko", "language": "de", "layout": layout, "format": fmt,
                      "timezone": "Europe/Berlin", "measurements": c["measurements"], "events": c["events"]})
    return {"files": files}


if __name__ == "__main__":
    write_or_check(HERE, compute())
