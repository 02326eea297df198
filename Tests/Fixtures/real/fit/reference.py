#!/usr/bin/env python3
"""The reference decoding of this folder's FIT files: fitparse (https://github.com/dtcooper/python-fitparse,
`pip install fitparse==1.2.0`), never HealthPipe code. Writes reference.json, which
Tests/WearablesTests/FITReferenceTests.swift checks HealthPipe's own decoder against; `--check` exits 1 when
reference.json differs from what fitparse decodes now.

Per file: the data messages fitparse reads (in all, and by message name); the `record` series
(heart_rate, speed, cadence, power, altitude: rows by distinct timestamp, their sum, first and last
value; the number of positions); the sessions (sport, start, elapsed and timer time, distance, energy,
average and maximum heart rate); the monitoring heart rate and steps. Steps follow the FIT profile
independently of HealthPipe: `cycles` is a running total per activity type whose `steps` subfield (raw,
scale 1) applies to walking (6) and running (1); an interval's steps are the rise of its type's total,
counted from 0 at the file's start and at local midnight, a lower total counting whole; a message
with `duration_min` is a summary of the period before it (a day's totals), not an interval.
A file fitparse refuses (a CRC mismatch, a cut-off or corrupt file) is recorded with its error: what
HealthPipe must then quarantine is checked by the Swift test.
"""
import datetime
import json
import pathlib
import sys

import fitparse

HERE = pathlib.Path(__file__).resolve().parent
FIT_EPOCH = datetime.datetime(1989, 12, 31, tzinfo=datetime.timezone.utc)
SERIES = {  # metric: fields in order of preference (the enhanced 32-bit field first)
    "heart_rate": ["heart_rate"],
    "speed": ["enhanced_speed", "speed"],
    "cadence": ["cadence"],
    "power": ["power"],
    "altitude": ["enhanced_altitude", "altitude"],
}
STEP_TYPES = {"walking", "running"}


def epoch(dt):
    return int(dt.replace(tzinfo=datetime.timezone.utc).timestamp())


def summary(values):
    """values: {time: value} → count, sum, first and last (by time)."""
    if not values:
        return None
    times = sorted(values)
    return {"count": len(times), "sum": round(sum(values[t] for t in times), 6),
            "first": values[times[0]], "last": values[times[-1]]}


def decode(path):
    out = {"file": path.name}
    try:
        messages = list(fitparse.FitFile(str(path)).get_messages())
    except Exception as e:  # fitparse refuses the file: record why, and decode its FIT files one by one
        out["error"] = f"{type(e).__name__}: {e}"
        out["sections"] = sections(path.read_bytes())
        return out
    names = {}
    for m in messages:
        names[m.name] = names.get(m.name, 0) + 1
    out["messages"] = len(messages)
    out["by_name"] = dict(sorted(names.items()))

    series = {k: {} for k in SERIES}
    positions = set()
    for m in messages:
        if m.name != "record":
            continue
        values = {d.name: d.value for d in m}
        t = values.get("timestamp")
        if t is None:
            continue
        t = epoch(t)
        for metric, fields in SERIES.items():
            v = next((values[f] for f in fields if values.get(f) is not None), None)
            if v is not None:
                series[metric][t] = float(v)
        if values.get("position_lat") is not None and values.get("position_long") is not None:
            positions.add(t)
    out["records"] = {k: s for k, v in series.items() if (s := summary(v))}
    out["positions"] = len(positions)

    sessions = []
    for m in messages:
        if m.name != "session":
            continue
        v = {d.name: d.value for d in m}
        start = v.get("start_time") or v.get("timestamp")
        sessions.append({
            "sport": v.get("sport") if isinstance(v.get("sport"), str) else f"sport_{v.get('sport')}",
            "start": epoch(start),
            "elapsed_s": v.get("total_elapsed_time"), "timer_s": v.get("total_timer_time"),
            "distance_m": v.get("total_distance"), "energy_kcal": v.get("total_calories"),
            "avg_heart_rate": v.get("avg_heart_rate"), "max_heart_rate": v.get("max_heart_rate"),
        })
    out["sessions"] = sessions

    offset = None
    for m in messages:
        if m.name in ("activity", "monitoring_info") and offset is None:
            v = {d.name: d for d in m}
            if "local_timestamp" in v and "timestamp" in v and v["local_timestamp"].value and v["timestamp"].value:
                d = (v["local_timestamp"].value - v["timestamp"].value).total_seconds()
                offset = int(round(d / 900) * 900)
    out["utc_offset"] = offset

    monitoring = [m for m in messages if m.name == "monitoring"]
    if monitoring:
        out["monitoring"] = monitoring_totals(messages, offset or 0)
    return out


def sections(data):
    """A refused input cut at its FIT headers (size byte, data size at bytes 4-7, CRC after the
    data), each part decoded by fitparse alone: its message count, or its error."""
    out, pos = [], 0
    while pos < len(data):
        size = data[pos]
        if len(data) - pos < 12 or size not in (12, 14) or data[pos + 8:pos + 12] != b".FIT":
            out.append({"offset": pos, "bytes": len(data) - pos, "error": "no FIT header"})
            break
        end = min(len(data), pos + size + int.from_bytes(data[pos + 4:pos + 8], "little") + 2)
        part = {"offset": pos, "bytes": end - pos}
        try:
            part["messages"] = len(list(fitparse.FitFile(data[pos:end]).get_messages()))
        except Exception as e:
            part["error"] = f"{type(e).__name__}: {e}"
        out.append(part)
        pos = end
    return out


def monitoring_totals(messages, offset):
    last_full = None
    totals, day, previous = {}, None, None
    steps, hr = {}, {}
    summarised = 0
    for m in messages:
        v = {d.name: d for d in m}
        if "timestamp" in v and v["timestamp"].value is not None:
            last_full = epoch(v["timestamp"].value)
        if m.name == "monitoring_info" and last_full is not None:
            previous = last_full
        if m.name != "monitoring":
            continue
        if "timestamp" in v and v["timestamp"].value is not None:
            t = last_full
        elif "timestamp_16" in v and v["timestamp_16"].raw_value is not None and last_full is not None:
            low = last_full - int(FIT_EPOCH.timestamp())
            t = last_full + ((v["timestamp_16"].raw_value - (low & 0xFFFF)) & 0xFFFF)
        else:
            continue
        start = previous if previous is not None else t
        previous = t
        local_day = (t + offset) // 86400
        if day is not None and local_day != day:
            totals = {}
        day = local_day
        if "heart_rate" in v and v["heart_rate"].value is not None:
            hr[t] = float(v["heart_rate"].value)
        if "duration_min" in v:  # a summary of the period before it (a day's totals): not an interval
            total = next((d.raw_value for d in m if d.def_num == 3), None)
            if total is not None and "activity_type" in v and v["activity_type"].value in STEP_TYPES:
                summarised += total
            continue
        kind = v["activity_type"].value if "activity_type" in v else None
        cycles = next((d for d in m if d.def_num == 3), None)  # named `cycles` or, resolved, `steps`
        if kind in STEP_TYPES and cycles is not None and cycles.raw_value is not None:
            total = cycles.raw_value  # the `steps` subfield: raw, scale 1
            last = totals.get(kind, 0)
            rise = total - last if total >= last else total
            totals[kind] = total
            if rise > 0:
                steps[(min(start, t), t)] = float(rise)
    return {"step_count": {"count": len(steps), "sum": sum(steps.values())} if steps else None,
            "device_day_total_steps": summarised,
            "heart_rate": summary(hr)}


def main():
    files = sorted(p for p in HERE.glob("*.fit"))
    got = {"decoder": f"fitparse {fitparse.__version__}", "files": [decode(p) for p in files]}
    target = HERE / "reference.json"
    text = json.dumps(got, indent=1, default=str) + "\n"
    if "--check" in sys.argv:
        same = target.exists() and json.loads(target.read_text()) == json.loads(text)
        print("reference.json agrees" if same else "reference.json differs from what fitparse decodes")
        sys.exit(0 if same else 1)
    target.write_text(text)


if __name__ == "__main__":
    main()
