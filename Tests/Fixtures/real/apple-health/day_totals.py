#!/usr/bin/env python3
"""Independent day totals for the Apple Health exports beside it: what a day's steps (and every
other quantity that adds up) come to when several sources recorded the same minutes, as the Health
app shows them. Python 3 standard library only; never HealthPipe code or output. The reading of the
export (DTD cut, zip entry, dates, units) is count.py's.

The rule (docs/metrics.md, "Day totals"):
- A metric's records are keyed by (metric, source, start, end); the later record wins.
- Each record belongs to the local day of its start as the export writes it (the date in startDate).
- A record's value is spread evenly over the UTC minutes its interval [start, end) covers, each
  minute getting value * seconds covered / duration; a record without duration (or longer than a
  day) puts its whole value in its first minute.
- In each minute of a day, only the highest-priority source with a share in it counts: a name
  containing "watch" (any case) first, then one containing "iphone", then every other source; ties
  by name.
- The day's total is the exact sum (math.fsum) of the counted shares; by_source is what each
  counted; recorded is the plain sum of the day's records (what all sources wrote together).

`python3 day_totals.py` writes day_totals.json; `--check` exits 1 when it differs."""
import math, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from count import FILES, convert, epoch, export_text, snake  # noqa: E402
from expected_io import write_or_check  # noqa: E402
import xml.etree.ElementTree as ET  # noqa: E402

# The quantity types whose day adds up that these exports carry (HealthKit's cumulative types).
TOTALS = {"StepCount", "DistanceWalkingRunning", "FlightsClimbed", "ActiveEnergyBurned", "BasalEnergyBurned"}
LONGEST_SPREAD = 86_400


def tier(source):
    name = source.lower()
    return (0 if "watch" in name else 1 if "iphone" in name else 2, source)


def minutes(start, end, value):
    duration = end - start
    if duration <= 0 or duration > LONGEST_SPREAD:
        yield start // 60, value
        return
    minute = start // 60
    while minute * 60 < end:
        overlap = min(end, minute * 60 + 60) - max(start, minute * 60)
        yield minute, value * overlap / duration
        minute += 1


def day_totals(path):
    root = ET.fromstring(export_text(path))
    records = {}  # (metric, source, start, end) → (day, value)
    # Records inside a Correlation are written again at top level (the DTD): only top-level ones count.
    for el in root:
        t = el.get("type") or ""
        kind = t[len("HKQuantityTypeIdentifier"):]
        if el.tag != "Record" or not t.startswith("HKQuantityTypeIdentifier") or kind not in TOTALS:
            continue
        start, end = epoch(el.get("startDate")), epoch(el.get("endDate"))
        records[(snake(kind), el.get("sourceName"), start, end)] = (el.get("startDate")[:10],
                                                                    convert(kind, el.get("unit"), float(el.get("value"))))
    groups = {}
    for (metric, source, start, end), (day, value) in records.items():
        groups.setdefault((metric, day), []).append((source, start, end, value))
    out = {}
    for (metric, day), recs in sorted(groups.items()):
        winner = {}
        for source, start, end, value in recs:
            for minute, _ in minutes(start, end, value):
                if minute not in winner or tier(source) < tier(winner[minute]):
                    winner[minute] = source
        counted, by_source = [], {}
        for source, start, end, value in recs:
            for minute, share in minutes(start, end, value):
                if winner[minute] == source:
                    counted.append(share)
                    by_source.setdefault(source, []).append(share)
        out.setdefault(metric, {})[day] = {
            "records": len(recs),
            "recorded": round(math.fsum(r[3] for r in recs), 6),
            "total": round(math.fsum(counted), 6),
            "by_source": {s: round(math.fsum(v), 6) for s, v in sorted(by_source.items())},
        }
    return out


def compute():
    return {"files": [{"file": name, "days": day_totals(HERE / name)} for name, _, _ in FILES]}


if __name__ == "__main__":
    write_or_check(HERE, compute(), name="day_totals.json")
