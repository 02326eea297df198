#!/usr/bin/env python3
"""Independent counter for the CareLink corpus (Python 3 standard library only, no HealthPipe code).

Reads each Medtronic CareLink CSV the way the vendor lays it out: an optional preamble, then one or
more sections, each opened by a `-------;<device>;<Pump|Sensor>;<serial>;-------` marker or not, and a
header row starting with `Index`; separate Date and Time columns; `;` files write a decimal comma.
It counts what an import must store (Tests/Fixtures/real/README.md), by the mapping documented in
docs/vendors/medtronic.md:

  Sensor Glucose -> glucose; BG Reading and Sensor Calibration BG -> blood_glucose (a meter reading
  that is also the row's calibration once); ISIG Value -> isig; Basal Rate (U/h), or the RATE of a
  BasalProfileStart record in the older layout's Raw-Values -> basal_rate; Temp Basal Amount of type
  Rate with a duration -> basal_rate over that span, of type Percent -> an insulin event `temp_basal`
  without an amount;
  Bolus Volume Delivered -> insulin (not the programmed half: 0 delivered with a selected volume; one
  per Bolus Number); BWZ Carb Input > 0 -> meal; Event Marker `Insulin: n` -> insulin, `Meal: n` ->
  meal, others -> note (not the `Start of the day`/`End of the day` boundaries a 7xxG writes); Alarm/Alert
  -> alert; Suspend and Rewind -> device. A BG Reading whose BG Source is `BG_SENT_FOR_CALIB` is the
  copy of a reading sent to the sensor, not another reading. In a 7xxG's "Aggregated Auto Insulin Data"
  section (marker `-------,<pump>,Pump,<serial>,Aggregated Auto Insulin Data`) each row is one day's
  auto insulin: an insulin event `basal` of the delivered volume.

Rows are distinct by the store's natural keys: measurements (metric, source, instant), events
(kind, subtype, source, instant, amount); a local time skipped by a DST change moves forward.

  python3 count.py          writes expected.json
  python3 count.py --check  exits 1 when expected.json differs
"""
import csv
import datetime
import pathlib
import re
import sys
import zoneinfo

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import totals, write_or_check  # noqa: E402


FILES = [
    ("carelink-en-paradigm515-v101.csv", "en", "CareLink Personal Data Export File v1.0.1, Paradigm 515, `,`", "America/Los_Angeles"),
    ("carelink-en-paradigm522-v101.csv", "en", "CareLink Personal Data Export File v1.0.1, Paradigm 522, `,`", "America/Los_Angeles"),
    ("carelink-en-revel723-v101.csv", "en", "CareLink Personal Data Export File v1.0.1, Paradigm Revel 723, `,`", "America/Los_Angeles"),
    ("carelink-en-revel523-sensor-v101.csv", "en", "CareLink Personal Data Export File v1.0.1, Revel 523 with sensor, `,`",
     "America/Los_Angeles"),
    ("carelink-en-guardian-connect-eu.csv", "en", "CareLink Guardian Connect, `;` and decimal comma, Pump and Sensor sections",
     "Europe/Bucharest"),
    ("carelink-en-780g-mmol.csv", "en", "CareLink web export, MiniMed 780G, `,`, mmol/L, BOM, CRLF: Pump, Aggregated Auto "
     "Insulin Data and Sensor sections", "Australia/Sydney"),
]

GLUCOSE_MMOL = 18.0156


def number(text, comma):
    t = text.strip()
    if not t:
        return None
    if comma or re.fullmatch(r"-?\d+,\d+", t):
        t = t.replace(",", ".")
    return float(t)


def local_time(date, time):
    d = date.strip()
    m = re.fullmatch(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", d)
    if m:
        y, mo, da = int(m[1]), int(m[2]), int(m[3])
    else:
        m = re.fullmatch(r"(\d{1,2})([/.-])(\d{1,2})[/.-](\d{2}|\d{4})", d)
        if not m:
            raise ValueError("date " + date)
        a, b, y = int(m[1]), int(m[3]), int(m[4])
        y = 2000 + y if len(m[4]) == 2 else y
        mo, da = (a, b) if m[2] == "/" else (b, a)
    return "%04d-%02d-%02d %s" % (y, mo, da, time.strip())


def utc(local, zone):
    """The instant of a wall-clock time: a time skipped by a DST change moves forward by the gap (the
    import's default); a repeated hour is refused here, since none of these files has one."""
    naive = datetime.datetime.strptime(local, "%Y-%m-%d %H:%M:%S")
    tz = zoneinfo.ZoneInfo(zone)
    a, b = naive.replace(tzinfo=tz, fold=0), naive.replace(tzinfo=tz, fold=1)
    if a.utcoffset() != b.utcoffset() and a.astimezone(datetime.timezone.utc).astimezone(tz).replace(tzinfo=None) == naive:
        raise ValueError("ambiguous local time " + local)
    return a.astimezone(datetime.timezone.utc)


def count_file(path, zone):
    raw = path.read_bytes().decode("utf-8-sig")
    lines = raw.splitlines()
    source = "Medtronic CareLink"
    header = None
    delim = ","
    measurements = {}
    events = {}
    boluses = {}
    auto = False

    def glucose(cells, col):
        i, mmol = col
        v = number(cells[i], delim == ";") if i < len(cells) else None
        if v is None:
            return None
        return float(round(v * GLUCOSE_MMOL)) if mmol else v

    for line in lines:
        if not line.strip():
            continue
        d = ";" if line.count(";") > line.count(",") else ","
        first = next(csv.reader([line], delimiter=d))
        if line.startswith("-------"):
            if len(first) > 1 and first[1].strip():
                source = first[1].strip()
            # a 7xxG's "Aggregated Auto Insulin Data" section: one row per day, SmartGuard's auto insulin
            auto = len(first) > 4 and first[4].strip().lower() == "aggregated auto insulin data"
            continue
        if first[0].strip() == "Index":
            delim = d
            names = [c.strip() for c in first]
            header = {n: i for i, n in enumerate(names) if n not in header_skip}
            continue
        if header is None:
            for i, c in enumerate(first[:-1]):
                if c.strip().lower() in ("device", "pump:") and first[i + 1].strip():
                    source = first[i + 1].strip()
            continue
        cells = next(csv.reader([line], delimiter=delim))
        comma = delim == ";"

        def cell(name):
            i = header.get(name)
            return cells[i].strip() if i is not None and i < len(cells) else ""

        def gcol(prefix):
            for n, i in header.items():
                if n.startswith(prefix):
                    return (i, "mmol" in n.lower())
            return None

        used = ["BG Reading", "Sensor Calibration BG", "Sensor Glucose", "ISIG Value", "Basal Rate (U/h)", "Temp Basal Amount",
                "Bolus Volume Delivered (U)", "BWZ Carb Input (grams)", "Event Marker", "Alarm", "Alert", "Suspend", "Rewind"]
        # the older layout logs a scheduled basal rate only as a BasalProfileStart record: `RATE=0.75` in Raw-Values
        profile = None
        if cell("Raw-Type") == "BasalProfileStart":
            profile = float(re.search(r"RATE=([\d.]+)", cell("Raw-Values"))[1])
        if profile is None and not any(cells[i].strip() for n, i in header.items()
                                       if any(n.startswith(u) for u in used) and i < len(cells)):
            continue
        local = local_time(cell("Date"), cell("Time"))
        at = utc(local, zone)
        if auto:
            # the day's auto insulin: basal insulin over that local day, not a bolus at midnight
            delivered = number(cell("Bolus Volume Delivered (U)"), comma)
            if delivered:
                events.setdefault(("insulin", "basal", source, at, delivered), delivered)
            continue

        def measure(metric, value):
            measurements[(metric, source, at)] = value  # a later reading at the same instant replaces an earlier one

        def event(kind, subtype, amount):
            events.setdefault((kind, subtype, source, at, amount), amount)

        sg = gcol("Sensor Glucose (")
        bg = gcol("BG Reading (")
        cal = gcol("Sensor Calibration BG (")
        sgv = glucose(cells, sg) if sg else None
        bgv = glucose(cells, bg) if bg else None
        calv = glucose(cells, cal) if cal else None
        if sgv is not None:
            measure("glucose", sgv)
        if calv is not None:
            measure("blood_glucose", calv)
        # a 7xxG logs a finger stick again when it sends it to the sensor (BG Source BG_SENT_FOR_CALIB)
        if bgv is not None and calv != bgv and cell("BG Source") != "BG_SENT_FOR_CALIB":
            measure("blood_glucose", bgv)
        isig = number(cell("ISIG Value"), comma)
        if isig is not None:
            measure("isig", isig)
        basal = number(cell("Basal Rate (U/h)"), comma)
        basal = profile if basal is None else basal
        if basal is not None:
            measure("basal_rate", basal)

        # a temp basal: a rate (type Rate or Absolute) with a duration is a basal_rate over that span;
        # a percentage (or no duration) an insulin event without an amount (as Nightscout's Temp Basal)
        temp = cell("Temp Basal Amount") or cell("Temp Basal Amount (U/h)")
        if temp:
            hms = [int(p) for p in re.findall(r"\d+", cell("Temp Basal Duration (hh:mm:ss)"))]
            span = hms[0] * 3600 + hms[1] * 60 + hms[2] if len(hms) == 3 else 0
            if cell("Temp Basal Type").lower() != "percent" and span > 0:
                measurements[("basal_rate", source, at, span)] = number(temp, comma)
            else:
                event("insulin", "temp_basal", None)
        delivered = number(cell("Bolus Volume Delivered (U)"), comma)
        selected = number(cell("Bolus Volume Selected (U)"), comma)
        if delivered is not None and not (delivered == 0 and selected):
            n = number(cell("Bolus Number"), comma)
            keep = True
            if n is not None:
                # a Bolus Number pairs the programmed and the delivered row minutes apart; pumps reuse
                # numbers (a 780G's wrap within weeks), so the same number half a day apart is another bolus
                key = (int(n), cell("Bolus Type"))
                seen = boluses.get(key)
                keep = seen is None or abs((at - seen).total_seconds()) > 12 * 3600
                if keep:
                    boluses[key] = at
            if keep:
                event("insulin", "bolus", delivered)
        carbs = number(cell("BWZ Carb Input (grams)"), comma)
        if carbs:
            event("meal", "", carbs)
        marker = cell("Event Marker")
        if marker:
            label, _, rest = marker.partition(":")
            m = re.match(r"\s*([\d.,]+)", rest)
            amount = number(m[1], comma) if m else None
            low = label.strip().lower()
            if low in ("start of the day", "end of the day"):
                pass  # the export's own day boundaries (7xxG sensor section)
            elif low == "insulin":
                event("insulin", "", amount)
            elif low in ("meal", "carbs", "carbohydrates", "food"):
                event("meal", "", amount)
            elif low in ("illness", "sick", "stress"):
                event("episode", low, None)
            else:
                event("note", label.strip(), None)
        alarm = cell("Alarm") or cell("Alert")
        if alarm:
            event("alert", alarm, None)
        if cell("Suspend"):
            event("device", cell("Suspend"), None)
        if cell("Rewind"):
            event("device", "rewind", None)

    return totals(measurements, events)


header_skip = set()


def compute():
    files = []
    for name, lang, layout, zone in FILES:
        m, e = count_file(HERE / name, zone)
        files.append({"file": name, "vendor": "Medtronic CareLink", "language": lang, "layout": layout,
                      "format": "medtronic-carelink", "timezone": zone, "measurements": m, "events": e})
    return {"files": files}


if __name__ == "__main__":
    write_or_check(HERE, compute(), echo=True, sort_keys=True)
