#!/usr/bin/env python3
"""Independent counter for the Nightscout corpus (Python 3 standard library only; never HealthPipe).

Reads each file as the uploaders write it (docs/vendors/nightscout.md) and computes what an import
must store: per metric the distinct readings and their sum, per event kind the distinct events and
(insulin, meal) their amount. `python3 count.py` writes expected.json; `--check` exits 1 on a difference.
"""
import csv
import datetime as dt
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import write_or_check  # noqa: E402
MMOL = 18.0156

FILES = [
    ("nightscout-600series-entries-mongoexport.json", "Medtronic 600-series Android uploader", "mongoexport entries: "
     "exponent `date`, Java `dateString` (GMT+02:00, CEST), `key600`", "nightscout", None),
    ("nightscout-600series-treatments-mongoexport.json", "Medtronic 600-series Android uploader", "mongoexport treatments: "
     "Meal Bolus, Temp Basal (absolute / percent / none), suspends and resumes, BG Check, Note, Profile Switch", "nightscout", None),
    ("nightscout-600series-devicestatus-mongoexport.json", "Medtronic 600-series Android uploader", "mongoexport device "
     "status: pump battery, reservoir, `pump.iob.bolusiob`, `uploaderBattery`, and the phone's own `uploader.battery` documents",
     "nightscout", None),
    ("nightscout-aaps-treatments.json", "AndroidAPS", "API treatments: Temp Basal with only `rate` (the pump's percentage), "
     "SMB, Meal Bolus, Correction Bolus, Temporary Target, BG Check without units", "nightscout", None),
    ("nightscout-loop-entries.json", "Loop (Dexcom G6)", "API entries: fractional-millisecond `date` a second off "
     "`dateString`/`sysTime`, trend and trendRate, device `Dexcom G6 SERIAL`", "nightscout", "Europe/Berlin"),
    ("nightscout-loop-treatments.json", "Loop", "API treatments: Temp Basal `absolute` with fractional-minute durations, "
     "Correction Bolus with delivery duration, Carb Correction with absorptionTime, Site Change", "nightscout", None),
    ("nightscout-trio-treatments.json", "Trio", "API treatments: Temp Basal `absolute`, SMB, Bolus, Carb Correction with "
     "fat/protein and Trio's spread fat-protein units sharing one `id`, Exercise, Temporary Target, Note, Site Change", "nightscout", None),
    ("nightscout-xdrip4ios-treatments.json", "xDrip4iOS", "API treatments: a meal as `Carbs` and `Bolus` 1 ms apart, "
     "BG Check in mg/dl, correction boluses", "nightscout", None),
    ("nightscout-exporter-with-treatments.csv", "nightscout-exporter", "CSV: # CGM ENTRIES and # TREATMENTS sections, "
     "M/D/YYYY 12-hour local times", "nightscout-exporter", "America/Chicago"),
]


def epoch_seconds(v):
    """`date` as uploaders write it: ms (int, float, exponent text); below 1e11 it is seconds."""
    x = float(v)
    return int(x) if x < 1e11 else int(x // 1000)


def iso_seconds(text):
    t = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return int(t.timestamp())


def mgdl_from_mmol(v):
    return float(int(v * MMOL + 0.5))


class Totals:
    def __init__(self):
        self.measurements = {}  # metric -> {natural key: value}
        self.events = {}        # kind -> {natural key: amount}

    def m(self, metric, key, value):
        self.measurements.setdefault(metric, {})[key] = value

    def e(self, kind, key, amount=None):
        self.events.setdefault(kind, {})[key] = amount

    def result(self):
        ms = {k: {"count": len(v), "sum": round(sum(v.values()), 6)} for k, v in sorted(self.measurements.items())}
        for k in ("glucose",):
            if k in self.measurements:
                kept = fold_repeats(self.measurements[k])
                ms[k] = {"count": len(kept), "sum": round(sum(kept.values()), 6)}
        ev = {}
        for k, v in sorted(self.events.items()):
            ev[k] = {"count": len(v)}
            if k in ("insulin", "meal"):
                ev[k]["sum"] = round(sum(a for a in v.values() if a), 6)
        return ms, ev


def fold_repeats(readings):
    """CGM readings are minutes apart: one within 30 s of a kept reading is a second uploader's
    repeat of it (Nightscout's best-known duplicate), and the earliest time is kept."""
    kept = {}
    last = None
    for start in sorted(readings):
        if last is not None and start - last < 30:
            continue
        kept[start] = readings[start]
        last = start
    return kept


def entries(docs, t):
    for d in docs:
        if "sgv" in d:
            v = float(d["sgv"])
            if v < 13:
                continue  # CGM status codes, not readings (none in the excerpt)
            t.m("glucose", epoch_seconds(d["date"]), v)
        elif "mbg" in d:
            t.m("blood_glucose", epoch_seconds(d["date"]), float(d["mbg"]))


def source(d):
    return d.get("enteredBy") or "Nightscout"


def temp_basal_rate(d):
    """(U/h or None, percent-of-scheduled or None) as each uploader writes it."""
    if d.get("absolute") is not None:
        return float(d["absolute"]), None
    rate = d.get("rate")
    if d.get("percent") is not None:
        p = float(d["percent"])
        if rate is not None and float(rate) != p + 100:
            return float(rate), None
        return None, p + 100
    if rate is None:
        return None, None
    aaps = "AndroidAPS" in str(d.get("enteredBy", "")) + str(d.get("device", ""))
    if d.get("isAbsolute") is False or str(d.get("temp", "")).lower().startswith("percent") or aaps:
        return None, float(rate)
    return float(rate), None


def treatments(docs, t):
    for d in docs:
        start = iso_seconds(d["created_at"])
        kind = (d.get("eventType") or "").lower()
        src = source(d)
        minutes = d.get("duration") or 0
        end = start + int(float(minutes) * 60 + 0.5)  # to the nearest second (half up)
        if kind == "bg check" or ("glucose" in d and not kind):
            v = float(d["glucose"])
            units = d.get("units")
            mmol = units.lower().startswith("mmol") if units else v <= 35
            t.m("blood_glucose", (src, start), mgdl_from_mmol(v) if mmol else v)
        elif kind in ("temp basal", "suspend pump"):
            if kind == "suspend pump":
                rate, pct = 0.0, None
            else:
                rate, pct = temp_basal_rate(d)
            if pct == 0:
                rate = 0.0
            if rate is not None and end > start:
                t.m("basal_rate", (src, start, end), round(rate, 3))
            else:
                t.e("device" if kind == "suspend pump" else "insulin", (kind, src, start, None), None)
        elif kind in ("site change", "insulin change", "sensor start", "sensor change", "sensor stop", "pump battery change",
                      "cannula change", "pod change", "reservoir change", "resume pump"):
            t.e("device", (kind, src, start), None)
        elif kind == "exercise":
            t.e("exercise", (kind, src, start), None)
        else:
            wrote = False
            ins = d.get("insulin")
            if ins is not None and float(ins) > 0:
                t.e("insulin", ("bolus", src, start, float(ins)), float(ins))
                wrote = True
            carbs = d.get("carbs")
            if carbs is not None and float(carbs) > 0:
                t.e("meal", ("", src, start, float(carbs)), float(carbs))
                wrote = True
            if not wrote:
                t.e("note", (kind or "note", src, start), None)


def exporter(path, t, zone):
    from zoneinfo import ZoneInfo
    z = ZoneInfo(zone)
    section, header = None, None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or not any(c.strip() for c in row):
                continue
            if row[0].startswith("#"):
                section, header = ("cgm" if "CGM" in row[0] else "treatments"), None
                continue
            if header is None:
                header = [c.strip().lower() for c in row]
                continue
            r = dict(zip(header, row))
            local = dt.datetime.strptime(r["date"] + " " + r["time"], "%m/%d/%Y %I:%M:%S %p").replace(tzinfo=z)
            start = int(local.timestamp())
            if section == "cgm":
                if r["type"] == "sgv":
                    t.m("glucose", start, float(r["glucose (mg/dl)"]))
                elif r["type"] == "mbg":
                    t.m("blood_glucose", start, float(r["glucose (mg/dl)"]))
                continue
            kind = r["event type"].lower()
            if kind == "temp basal":
                t.e("insulin", ("temp_basal", start), None)
                continue
            wrote = False
            if r["insulin (u)"] and float(r["insulin (u)"]) > 0:
                t.e("insulin", ("bolus", start, float(r["insulin (u)"])), float(r["insulin (u)"]))
                wrote = True
            if r["carbs (g)"] and float(r["carbs (g)"]) > 0:
                t.e("meal", ("", start, float(r["carbs (g)"])), float(r["carbs (g)"]))
                wrote = True
            if not wrote:
                t.e("note", (kind, start), None)


def device_status(docs, t):
    """Loop/OpenAPS/pump status: IOB, COB, reservoir, batteries, keyed by the status's device."""
    def get(d, path):
        for k in path.split("."):
            if not isinstance(d, dict) or k not in d:
                return None
            d = d[k]
        return d
    for d in docs:
        start = iso_seconds(d["created_at"])
        src = d.get("device") or "Nightscout"
        for metric, paths in (("insulin_on_board", ["openaps.iob.iob", "loop.iob.iob", "pump.iob.iob", "pump.iob.bolusiob"]),
                              ("carbs_on_board", ["openaps.suggested.COB", "openaps.enacted.COB", "loop.cob.cob"]),
                              ("pump_reservoir", ["pump.reservoir"]), ("pump_battery", ["pump.battery.percent"]),
                              ("uploader_battery", ["uploader.battery", "uploaderBattery"])):
            v = next((get(d, p) for p in paths if get(d, p) is not None), None)
            if v is not None:
                t.m(metric, (src, start), float(v))


def load_json_docs(path):
    text = path.read_text()
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def compute():
    files = []
    for name, vendor, layout, fmt, zone in FILES:
        t = Totals()
        path = HERE / name
        if name.endswith(".csv"):
            exporter(path, t, zone)
        else:
            docs = load_json_docs(path)
            if any("eventType" in d for d in docs):
                treatments(docs, t)
            elif any("pump" in d or "uploader" in d or "openaps" in d or "loop" in d for d in docs):
                device_status(docs, t)
            else:
                entries(docs, t)
        ms, ev = t.result()
        files.append({"file": name, "vendor": vendor, "language": "en", "layout": layout, "format": fmt,
                      "timezone": zone, "measurements": ms, "events": ev})
    return {"files": files}


if __name__ == "__main__":
    write_or_check(HERE, compute())
