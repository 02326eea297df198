import sys
#!/usr/bin/env python3
"""Independent counter for Levels glucose exports (Python 3 stdlib only; never HealthPipe).

The file: a line "Levels,<name>,,", then `Time (UTC),Time (Local),Glucose Reading (mg/dL),Type of
Reading`; every row (timeseries or directRead scan) is one sensor glucose reading at its UTC time.
Distinct instants are counted (readings sharing one are one stored row).
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import write_or_check  # noqa: E402

FILES = [("levels-export.csv", "en", "Levels member-portal export, mg/dL, UTC and local times")]


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    head = next(i for i, r in enumerate(rows) if "Glucose Reading (mg/dL)" in r)
    col = {name: i for i, name in enumerate(rows[head])}
    readings = {}
    for r in rows[head + 1:]:
        if not any(c.strip() for c in r):
            continue
        readings[r[col["Time (UTC)"]]] = float(r[col["Glucose Reading (mg/dL)"]])
    return {"glucose": {"count": len(readings), "sum": float(sum(readings.values()))}}


def compute():
    return {"files": [{"file": name, "vendor": "Levels", "language": lang, "layout": layout, "format": "levels",
                       "timezone": None, "measurements": count(HERE / name), "events": {}}
                      for name, lang, layout in FILES]}


if __name__ == "__main__":
    write_or_check(HERE, compute())
