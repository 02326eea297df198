#!/usr/bin/env python3
"""expected.json for RealCorpusTests, from reference.json (what fitparse decodes: reference.py), with
Python's standard library only: FIT is binary, so the independent reading is fitparse's, and this
counter only restates it in the corpus's terms — per metric the rows (one per time; steps one per
interval) and their sum, per event kind the rows. Files fitparse refuses are left to
FITReferenceTests (they are quarantined in part)."""
import json
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
from expected_io import main  # noqa: E402

LAYOUTS = {
    "MonitoringFile.fit": "monitoring_b, vívofit, big-endian",
    "garmin-fenix-5-run.fit": "activity, fēnix 5 run",
    "activity-small-fenix2-run.fit": "activity, fēnix 2 run with GPS",
    "Edge810-Vector-2013-08-16-15-35-10.fit": "activity, Edge 810 ride with power",
    "sample_mulitple_header.fit": "activity, Forerunner 920XT triathlon, chained FIT files",
    "developer-types-sample.fit": "activity with developer fields (Stryd)",
}


def count(entry):
    measurements = {}
    for metric, s in entry.get("records", {}).items():
        measurements[metric] = {"count": s["count"], "sum": s["sum"]}
    monitoring = entry.get("monitoring") or {}
    for metric in ("step_count", "heart_rate"):
        if monitoring.get(metric):
            measurements[metric] = {"count": monitoring[metric]["count"], "sum": monitoring[metric]["sum"]}
    events = {"exercise": {"count": len(entry["sessions"])}} if entry["sessions"] else {}
    return {"file": entry["file"], "vendor": "Garmin FIT", "language": "en", "layout": LAYOUTS[entry["file"]],
            "format": "garmin-fit", "timezone": None,
            "measurements": dict(sorted(measurements.items())), "events": events}


def compute():
    reference = json.loads((here / "reference.json").read_text())
    return {"files": [count(f) for f in reference["files"] if "error" not in f]}


main(here, compute, lambda p: None)
