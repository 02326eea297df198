import sys
#!/usr/bin/env python3
"""Independent counter for Apple Health exports (export.xml / export.zip written by the iPhone Health
app). Python 3 standard library only; never HealthPipe code or output.

What an import stores, read from docs/apple-health.md, docs/schema.md and Apple's HealthKit
documentation (the export's DTD says which elements exist):

- The document is `<HealthData locale=…>` after an internal DTD. The DTD is cut out before parsing
  (iOS 16 writes a broken one). A zip is opened and its `*.xml` entry that starts an export is read.
- Top-level `Record` of a quantity type → a measurement, metric = the identifier after
  `HKQuantityTypeIdentifier` in snake case (METRIC_NAMES lists the names HealthPipe chose where it
  is not plain snake case, docs/vendors/apple-health.md), value in the canonical unit (UNITS).
  `InsulinDelivery` → an insulin event instead (HKInsulinDeliveryReason 1 basal, 2 bolus).
  `DietaryCarbohydrates` → also a meal event (carbs_g), unless a Food correlation claims the record.
- Top-level `Record` of a category type → a measurement whose value is minutes from start to end;
  metric = snake(type) + "." + snake(state), the state being the value after
  `HKCategoryValue<Type>`; no value / `HKCategoryValueNotApplicable` → the plain name.
  `HKCategoryValueSleepAnalysisAsleep` is the pre-iOS-16 name of raw value 1, which Apple renamed
  `AsleepUnspecified` (same sample, same value): it counts as `sleep_analysis.asleep_unspecified`.
- Records nested in a `Correlation` are never counted again (the DTD: they also appear at top
  level). A Food correlation is one meal event (carbs = its nested carbohydrate records); a
  BloodPressure correlation adds nothing.
- `Workout` → an exercise event, subtype = activity after `HKWorkoutActivityType` in snake case.
- `ActivitySummary` → one measurement per present attribute (activity_active_energy[_goal],
  activity_move_time[_goal] (appleMoveTime; appleMoveMinutes in older exports),
  activity_exercise_time[_goal], activity_stand_hours[_goal]), source "Apple Health", per civil day.
- A `Record` of an `HKDataType…` type with a value (`HKDataTypeSleepDurationGoal`, unit hr, written
  by iOS 14 exports) → a measurement named by the rest in snake case (`sleep_duration_goal`).
- `Me`, `ExportDate` store no measurement or event.
- Natural keys (docs/schema.md): measurements (metric, source, start, end) — the later record wins;
  events (kind, subtype, source, start, amount).

`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import calendar, math, pathlib, re, sys, zipfile
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [  # file, language (of the locale), layout
    ("apple-health-en-us-ios10-food.xml", "en", "export version 3 (iOS 10), en_US: Food correlations, mg/dL glucose, workouts, 40 types from 15 apps"),
    ("apple-health-en-us-ios12.xml", "en", "export version 8 (iOS 12), en_US: iPhone steps, Clock sleep, Health mindful/fall/UV, Me"),
    ("apple-health-es-es-ios9-exportacion.zip", "es", "export version 2 (iOS 9), es_ES: exportación.zip with exportación.xml (NFD name) at the root, Mi Fit sleep"),
    ("apple-health-ko-kr-watchos8.xml", "ko", "export version 11 (iOS 15), ko-Kore_KR: Watch heart rate with motion context, NBSP in the source name, no Me"),
    ("apple-health-ar-sa-ios16-tasdir.zip", "ar", "export version 13 (iOS 16.4), ar_SA@calendar=gregorian: تصدير.xml, Arabic-Indic digits in Me, energy in Cal, headphone audio events"),
    ("apple-health-en-fr-ios14-garmin.xml", "en", "export version 11 (iOS 14), en_FR: Garmin Connect workouts and heart rate, gait metrics, dBASPL, HKDataTypeSleepDurationGoal"),
]

# Where HealthPipe's metric name is not the plain snake case of the identifier.
METRIC_NAMES = {"BloodGlucose": "glucose"}

DISTANCE = {"km": 1.0, "m": 0.001, "mi": 1.609344, "ft": 0.0003048, "yd": 0.0009144}
ENERGY = {"kcal": 1.0, "Cal": 1.0, "kJ": 1 / 4.184, "cal": 0.001}
MMOL_GLUCOSE = ("mmol<180.1558800000541>/L", "mmol/L")


def snake(name):
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()


def epoch(text):
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)", text.strip())
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    off = (int(m.group(8)) * 3600 + int(m.group(9)) * 60) * (1 if m.group(7) == "+" else -1)
    return calendar.timegm((y, mo, d, h, mi, s)) - off


def convert(kind, unit, value):
    """The value in the canonical unit (docs/apple-health.md, units table)."""
    if kind == "BloodGlucose" and unit in MMOL_GLUCOSE:
        return float(math.floor(value * 18.0156 + 0.5))
    if unit in DISTANCE and kind.startswith("Distance"):
        return value * DISTANCE[unit]
    if unit in ENERGY:
        return value * ENERGY[unit]
    if unit == "lb":
        return value * 0.45359237
    if unit == "degF":
        return (value - 32) * 5 / 9
    return value


def export_text(path):
    data = path.read_bytes()
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.lower().endswith(".xml"):
                    head = z.read(name)
                    if b"<!DOCTYPE HealthData" in head[:4096] or b"<HealthData" in head[:4096]:
                        data = head
                        break
    text = data.decode("utf-8")
    # Apple's internal DTD is not needed (and broken in iOS 16 exports): cut it out.
    return re.sub(r"<!DOCTYPE HealthData(\s*\[.*?\]\s*>|[^>]*>)", "", text, count=1, flags=re.S)


def meta(el):
    return {m.get("key"): m.get("value") for m in el.findall("MetadataEntry")}


def count(path):
    root = ET.fromstring(export_text(path))
    measurements, events = {}, {}
    carb_records = []  # (key of the carb record, event key) for claims by Food correlations
    claimed = set()

    def put_event(kind, subtype, source, start, amount):
        events[(kind, subtype, source, start, amount)] = amount

    for el in root:
        tag = el.tag
        if tag == "Record":
            t = el.get("type")
            source, start, end = el.get("sourceName"), epoch(el.get("startDate")), epoch(el.get("endDate"))
            if t.startswith("HKQuantityTypeIdentifier"):
                kind = t[len("HKQuantityTypeIdentifier"):]
                value = float(el.get("value"))
                if kind == "InsulinDelivery":
                    reason = meta(el).get("HKInsulinDeliveryReason")
                    put_event("insulin", {"1": "basal", "2": "bolus"}.get(reason, ""), source, start, value)
                    continue
                metric = METRIC_NAMES.get(kind, snake(kind))
                measurements[(metric, source, start, end)] = convert(kind, el.get("unit"), value)
                if kind == "DietaryCarbohydrates":
                    carb_records.append(((source, el.get("startDate"), el.get("endDate"), el.get("value")),
                                         ("meal", "", source, start, value)))
            elif t.startswith("HKCategoryTypeIdentifier"):
                kind = t[len("HKCategoryTypeIdentifier"):]
                metric = snake(kind)
                state = el.get("value") or ""
                prefix = "HKCategoryValue" + kind
                if state.startswith(prefix) and state != prefix:
                    state = state[len(prefix):]
                    if kind == "SleepAnalysis" and state == "Asleep":
                        state = "AsleepUnspecified"  # Apple's rename in iOS 16: same raw value 1
                    metric += "." + snake(state)
                measurements[(metric, source, start, end)] = (end - start) / 60.0
            elif t.startswith("HKDataType") and el.get("value") is not None:
                # A Health app setting written as a record (HKDataTypeSleepDurationGoal, unit hr):
                # a measurement named like a quantity type, value as written.
                measurements[(snake(t[len("HKDataType"):]), source, start, end)] = float(el.get("value"))
            else:
                raise ValueError(f"{path.name}: record type {t} is not counted")
        elif tag == "Correlation":
            if el.get("type") == "HKCorrelationTypeIdentifierFood":
                carbs = 0.0
                for r in el.findall("Record"):
                    if r.get("type") == "HKQuantityTypeIdentifierDietaryCarbohydrates":
                        carbs += float(r.get("value"))
                        claimed.add((r.get("sourceName"), r.get("startDate"), r.get("endDate"), r.get("value")))
                put_event("meal", "", el.get("sourceName"), epoch(el.get("startDate")), carbs)
        elif tag == "Workout":
            activity = el.get("workoutActivityType")[len("HKWorkoutActivityType"):]
            put_event("exercise", snake(activity), el.get("sourceName"), epoch(el.get("startDate")), 0.0)
        elif tag == "ActivitySummary":
            day = el.get("dateComponents")
            fields = [("activeEnergyBurned", "activity_active_energy"), ("activeEnergyBurnedGoal", "activity_active_energy_goal"),
                      ("appleMoveTime", "activity_move_time"), ("appleMoveMinutes", "activity_move_time"),
                      ("appleMoveTimeGoal", "activity_move_time_goal"), ("appleExerciseTime", "activity_exercise_time"),
                      ("appleExerciseTimeGoal", "activity_exercise_time_goal"), ("appleStandHours", "activity_stand_hours"),
                      ("appleStandHoursGoal", "activity_stand_hours_goal")]
            for attr, metric in fields:
                if el.get(attr) is not None:
                    measurements[(metric, "Apple Health", day, day)] = float(el.get(attr))
        elif tag in ("ExportDate", "Me"):
            pass
        else:
            raise ValueError(f"{path.name}: element {tag} is not counted")
    for record_key, event_key in carb_records:
        if record_key not in claimed:
            events[event_key] = event_key[4]

    out_m = {}
    for (metric, *_), v in measurements.items():
        t = out_m.setdefault(metric, {"count": 0, "sum": 0.0})
        t["count"] += 1
        t["sum"] += v
    out_e = {}
    for (kind, *_), amount in events.items():
        t = out_e.setdefault(kind, {"count": 0})
        t["count"] += 1
        if kind in ("meal", "insulin"):
            t["sum"] = t.get("sum", 0.0) + amount
    for t in list(out_m.values()) + list(out_e.values()):
        if "sum" in t:
            t["sum"] = round(t["sum"], 6)
    return dict(sorted(out_m.items())), dict(sorted(out_e.items()))


def compute():
    files = []
    for name, lang, layout in FILES:
        m, e = count(HERE / name)
        files.append({"file": name, "vendor": "Apple Health", "language": lang, "layout": layout,
                      "format": "apple-health", "timezone": None, "measurements": m, "events": e})
    return {"files": files}


if __name__ == "__main__":
    main(HERE, compute, count)
