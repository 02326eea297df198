import sys
#!/usr/bin/env python3
"""Independent counter for Ypsomed mylife logbook exports (Python 3 stdlib only; never HealthPipe).

The file: `"Tag";"Datum";"Uhrzeit";"Ereignis";"Wert";"Einheit";"Information";"Notiz"`, one row per
logbook entry, cells quoted, dates DD.MM.YY, times HH:MM, decimal comma. By `Ereignis`:
  Bolus -> a bolus insulin event (Wert in U); Kohlenhydrate -> a meal (g);
  Hypo Kohlenhydrate -> a meal of subtype hypo_treatment; Blutzucker manuelle Eingabe -> blood_glucose
  (mg/dL); every other type (Boost, Ease-off, Auto mode An …) is not stored.
Distinct natural keys are counted (docs/schema.md).
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import kind_totals, write_or_check  # noqa: E402

FILES = [("mylife-de-logbook.csv", "de", "mylife logbook export, German, mg/dL, decimal comma, DD.MM.YY")]
EVENTS = {"Bolus": ("insulin", "bolus"), "Kohlenhydrate": ("meal", ""), "Hypo Kohlenhydrate": ("meal", "hypo_treatment")}


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter=";"))
    col = {name: i for i, name in enumerate(rows[0])}
    glucose, events = {}, {}
    for r in rows[1:]:
        if not any(c.strip() for c in r):
            continue
        kind = r[col["Ereignis"]]
        if kind not in EVENTS and kind != "Blutzucker manuelle Eingabe":
            continue
        t = datetime.datetime.strptime(r[col["Datum"]] + " " + r[col["Uhrzeit"]], "%d.%m.%y %H:%M")
        value = float(r[col["Wert"]].strip().replace(",", "."))
        if kind in EVENTS:
            if value:
                events[EVENTS[kind] + (t, value)] = True
        else:
            glucose[t] = value
    out = {"measurements": {}, "events": {}}
    if glucose:
        out["measurements"]["blood_glucose"] = {"count": len(glucose), "sum": float(sum(glucose.values()))}
    out["events"] = kind_totals(events, summed=None)
    return out


def compute():
    return {"files": [{"file": name, "vendor": "mylife", "language": lang, "layout": layout, "format": "mylife",
                       "timezone": "Europe/Zurich", **count(HERE / name)} for name, lang, layout in FILES]}


if __name__ == "__main__":
    write_or_check(HERE, compute())
