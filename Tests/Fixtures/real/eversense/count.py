#!/usr/bin/env python3
"""Independent counter for Senseonics Eversense DMS exports (Python 3 stdlib only; never HealthPipe).

The file: an Excel workbook (.xlsx), one sheet, header row `EventDateStr | EventTimeStr | Value |
UnitMeasureVal | SensorID`, then one sensor reading per row, newest first: `19-October-2021 |
3:00 PM | 180 | mg/dL | 999999` — dates and times as text (shared strings), the value a number.
Times are local wall-clock time (the test imports with the zone in expected.json). mmol/L values
would be stored as whole mg/dL (x 18.0156, rounded). Distinct local instants are counted.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs;
`python3 count.py FILE...` prints the counts of other files of this layout (the full original)."""
import datetime, pathlib, re, sys, zipfile
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
HEADER = ["EventDateStr", "EventTimeStr", "Value", "UnitMeasureVal", "SensorID"]
FILES = [
    ("eversense-dms-en-mgdl.xlsx", "en", "Eversense DMS export as an Excel workbook, mg/dL, full English month names, 12-hour clock"),
]


def sheet_rows(path):
    with zipfile.ZipFile(path) as z:
        strings = [''.join(t.text or '' for t in si.iter('{%s}t' % NS["m"]))
                   for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", NS)]
        root = ET.fromstring(z.read("xl/worksheets/sheet1.xml"))
    for row in root.find("m:sheetData", NS).findall("m:row", NS):
        cells = {}
        for c in row.findall("m:c", NS):
            col = re.match(r"[A-Z]+", c.get("r")).group(0)
            v = c.find("m:v", NS)
            text = "" if v is None else v.text
            cells[ord(col) - ord("A")] = strings[int(text)] if c.get("t") == "s" else text
        yield [cells.get(i, "") for i in range(max(cells) + 1)] if cells else []


def count(path):
    rows = list(sheet_rows(path))
    assert rows[0][:5] == HEADER, rows[0]
    readings = {}
    for r in rows[1:]:
        if not any(r):
            continue
        local = datetime.datetime.strptime(r[0] + " " + r[1], "%d-%B-%Y %I:%M %p")
        unit, v = r[3], float(r[2])
        assert unit in ("mg/dL", "mmol/L"), unit
        readings[local] = float(round(v * 18.0156)) if unit == "mmol/L" else v
    return {"glucose": {"count": len(readings), "sum": float(sum(readings.values()))}}, 0


def compute():
    files = []
    for name, lang, layout in FILES:
        measurements, quarantined = count(HERE / name)
        files.append({"file": name, "vendor": "Senseonics Eversense", "language": lang, "layout": layout, "format": "eversense",
                      "timezone": "Europe/Rome", "measurements": measurements, "events": {}, "quarantined": quarantined})
    return {"files": files}


if __name__ == "__main__":
    main(HERE, compute, count)
