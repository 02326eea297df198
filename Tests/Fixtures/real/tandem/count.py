#!/usr/bin/env python3
"""Independent counter for the Tandem t:connect corpus (Python 3 standard library only, no HealthPipe code).

A t:connect Therapy Timeline export is a preamble, then sections separated by blank lines, each a CSV
table with its own header: readings (`DeviceType,…,Readings (CGM / BGM)`, EGV = CGM, BG = meter),
insulin on board (`Type,EventID,EventDateTime,IOB`), basal rates (`…,BasalRate,…`) and boluses
(`Type,Description,BG,IOB,BolusRequestID,…,CarbSize,…`). Each section is recognised by its header.
What an import stores (docs/vendors/tandem.md):

  EGV -> glucose (source Dexcom), BG -> blood_glucose; IOB -> insulin_on_board; a bolus row -> one
  insulin event (InsulinDelivered, the whole bolus with its extended part; BolexInsulinDelivered only
  when that is empty; at RequestDateTime, else EventDateTime or CompletionDateTime, an extended bolus
  at its BolexStartDateTime) and, with CarbSize > 0, one meal event; a basal row -> a basal_rate
  measurement (U/h).

The Tandem Source "Daily Timeline Data Export" has the same kinds of sections with other headers: EGV
readings (`DeviceType,SerialNumber,Description,EventDateTime,Readings (mg/dL)`), meter readings
(`…,BG (mg/dL),Note`) and a bolus table (`Type,BolusType,BolusDeliveryMethod,BG (mg/dL),SerialNumber,
CompletionDateTime,InsulinDelivered,…`); every row padded with commas to 20 cells, hours unpadded.

Rows are distinct by the store's natural keys: measurements (metric, source, time), events (kind,
subtype, source, time, amount). Times are the pump's local clock; the files have no DST change.

  python3 count.py          writes expected.json
  python3 count.py --check  exits 1 when expected.json differs
"""
import csv
import datetime
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import totals, write_or_check  # noqa: E402


FILES = [
    ("tandem-en-therapy-timeline.csv", "en", "t:connect Therapy Timeline (readings, IOB, bolus sections)", "America/New_York"),
    ("tandem-en-source-daily-timeline.csv", "en",
     "Tandem Source Daily Timeline (Tandem Mobi): EGV and BG sections, bolus table by CompletionDateTime", "America/New_York"),
]


def clock(s):
    """A local time `2024-03-01T08:00:12` or `2024-03-01 8:00:12` (Tandem Source writes hours unpadded)."""
    return datetime.datetime.strptime(s.replace("T", " "), "%Y-%m-%d %H:%M:%S")


def num(s):
    s = (s or "").strip()
    return float(s) if s else None


def count_file(path):
    measurements, events = {}, {}
    section, cols = None, {}
    for row in csv.reader(path.read_text(encoding="utf-8-sig").splitlines()):
        if not row or not any(c.strip() for c in row):
            continue
        first = row[0].strip()
        if first in ("DeviceType", "Type"):
            cols = {c.strip(): i for i, c in enumerate(row)}
            if any(k.startswith("Readings (") or k.startswith("BG (") for k in cols) and "EventDateTime" in cols:
                section = "readings"
            elif "BolusRequestID" in cols or "InsulinDelivered" in cols:
                section = "bolus"
            elif "BasalRate" in cols:
                section = "basal"
            elif "IOB" in cols:
                section = "iob"
            else:
                section = "other"
            continue
        if section is None:
            continue

        def cell(name):
            i = cols.get(name)
            return row[i].strip() if i is not None and i < len(row) else ""

        if section == "readings":
            value_col = next(k for k in cols if k.startswith("Readings (") or k.startswith("BG ("))
            v = num(cell(value_col))
            meter = cell("Description") == "BG"
            key = ("blood_glucose" if meter else "glucose", cell("DeviceType") if meter else "Dexcom", clock(cell("EventDateTime")))
            measurements[key] = v
        elif section == "iob":
            measurements[("insulin_on_board", "t:slim X2", cell("EventDateTime"))] = num(cell("IOB"))
        elif section == "basal":
            measurements[("basal_rate", "t:slim X2", clock(cell("EventDateTime")))] = num(cell("BasalRate"))
        elif section == "bolus":
            at = cell("RequestDateTime") or cell("EventDateTime") or cell("CompletionDateTime")
            # InsulinDelivered is the whole bolus, its extended (Bolex) part included; an extended
            # bolus starts at BolexStartDateTime.
            delivered, bolex = num(cell("InsulinDelivered")), num(cell("BolexInsulinDelivered")) or 0.0
            insulin = delivered if delivered is not None else bolex
            if bolex > 0 and cell("BolexStartDateTime") and clock(cell("BolexStartDateTime")) < clock(at):
                at = cell("BolexStartDateTime")
            at = clock(at)
            carbs = num(cell("CarbSize")) or 0.0
            if insulin > 0:
                events[("insulin", "bolus", "t:slim X2", at, round(insulin, 6))] = insulin
            if carbs > 0:
                events[("meal", "", "t:slim X2", at, carbs)] = carbs

    return totals(measurements, events)


def compute():
    files = []
    for name, lang, layout, zone in FILES:
        m, e = count_file(HERE / name)
        files.append({"file": name, "vendor": "Tandem t:connect", "language": lang, "layout": layout,
                      "format": "tandem-tconnect", "timezone": zone, "measurements": m, "events": e})
    return {"files": files}


if __name__ == "__main__":
    write_or_check(HERE, compute(), echo=True, sort_keys=True)
