#!/usr/bin/env python3
"""Independent counter for Abbott Lingo app exports (Python 3 stdlib only; never HealthPipe).

The file: one header line `Time of Glucose Reading [T=(local time) +/- (time zone offset)],
Measurement(mg/dL)` (the UK app: `Measurement(mmol/L)`), then one reading per line, newest first:
`2025-11-30T21:31-06:00,119` — local time with its UTC offset, no seconds. A cell `Out of range`
holds no value (and no direction): HealthPipe must quarantine that row, so it is counted apart.
mmol/L values are stored as whole mg/dL (× 18.0156, rounded). Distinct UTC instants are counted.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [
    ("lingo-en-us-mgdl.csv", "en", "Lingo app export (US), mg/dL, local time with offset, Out of range cells"),
    ("lingo-en-gb-mmol.csv", "en", "Lingo app export (UK), mmol/L, local time with offset"),
]


def count(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = [h.strip() for h in rows[0]]
    assert header[0] == "Time of Glucose Reading [T=(local time) +/- (time zone offset)]", header
    mmol = header[1] == "Measurement(mmol/L)"
    assert mmol or header[1] == "Measurement(mg/dL)", header
    readings, out_of_range = {}, 0
    for r in rows[1:]:
        if not r:
            continue
        instant = datetime.datetime.strptime(r[0], "%Y-%m-%dT%H:%M%z").astimezone(datetime.timezone.utc)
        cell = r[1].strip()
        if cell == "Out of range":
            out_of_range += 1
            continue
        v = float(cell)
        readings[instant] = float(round(v * 18.0156)) if mmol else v
    return {"glucose": {"count": len(readings), "sum": float(sum(readings.values()))}}, out_of_range


def compute():
    files = []
    for name, lang, layout in FILES:
        measurements, quarantined = count(HERE / name)
        files.append({"file": name, "vendor": "Abbott Lingo", "language": lang, "layout": layout, "format": "lingo",
                      "timezone": None, "measurements": measurements, "events": {}, "quarantined": quarantined})
    return {"files": files}


if __name__ == "__main__":
    main(HERE, compute, count)
