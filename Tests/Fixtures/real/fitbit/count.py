#!/usr/bin/env python3
"""Independent counter for Fitbit exports (Python 3 stdlib only; never HealthPipe).

Account export ("Fitbit/Global Export Data"), JSON arrays:
- heart_rate-*.json: {"dateTime": "MM/DD/YY HH:MM:SS", "value": {"bpm": n, "confidence": c}}; every
  reading is heart_rate (count/min); readings sharing a dateTime are one stored row.
- resting_heart_rate-*.json: {"dateTime", "value": {"date": "MM/DD/YY", "value": v, "error": e}}; one
  resting_heart_rate per day with a value; a day written as 0.0 has none (not stored).
Google Takeout ("Physical Activity_GoogleData"):
- heart_rate_YYYY-MM-DD.csv: `timestamp,beats per minute`, UTC times with Z; every row is heart_rate.
Heart Rate Variability folder:
- Daily Heart Rate Variability Summary - *.csv: `timestamp,rmssd,nremhr,entropy`, one row per night;
  rmssd (ms) is heart_rate_variability_rmssd, the other columns are not stored.
- sleep-*.json: an array of sleep logs. Each log is one sleep_analysis.in_bed session (startTime to
  endTime, in minutes: endTime is 30 s after startTime + duration, where the last level ends); each levels.data entry a span of its level (seconds / 60 minutes) with the levels.shortData
  short wakes cut out of it and kept as awake spans. Levels: wake/awake -> awake, light -> asleep_core,
  deep -> asleep_deep, rem -> asleep_rem, asleep -> asleep_unspecified, restless -> restless; unknown
  (Fitbit's filler) is not stored. A stages log whose levels differ from Fitbit's own levels.summary
  by more than a minute is named on stderr.
Sleep folder:
- sleep_score.csv: `sleep_log_entry_id,timestamp,overall_score,composition_score,revitalization_score,
  duration_score,deep_sleep_in_minutes,resting_heart_rate,restlessness`, one row per sleep log; each
  non-empty score is fitbit.sleep_score(_composition, _revitalization, _duration), restlessness
  fitbit.sleep_restlessness; deep_sleep_in_minutes and resting_heart_rate are not stored.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, datetime, json, pathlib, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [
    ("heart_rate-2022-10-07.json", "fitbit-heart-rate", "America/Los_Angeles", "account export heart rate, 5-15 s, UTC times"),
    ("resting_heart_rate-2024-03-01.json", "fitbit-resting-heart-rate", "Europe/Amsterdam", "account export resting heart rate, daily"),
    ("resting_heart_rate-2023-03-02.json", "fitbit-resting-heart-rate", "Europe/Amsterdam", "account export resting heart rate, daily"),
    ("heart_rate_2024-10-27.csv", "fitbit-takeout-heart-rate", None, "Google Takeout heart rate CSV, UTC with Z"),
    ("Daily Heart Rate Variability Summary - 2024-07-(21).csv", "fitbit-hrv-daily", "Europe/Amsterdam",
     "nightly HRV summary CSV, naive local midnight"),
    ("sleep_score.csv", "fitbit-sleep-score", "Europe/Amsterdam", "sleep score CSV, one row per log, wall clock with Z"),
    ("sleep-2020-03-31.json", "fitbit-sleep", "Australia/Melbourne", "account export sleep logs, classic and stages, local times"),
]

SLEEP_NAMES = {"wake": "awake", "awake": "awake", "light": "asleep_core", "deep": "asleep_deep", "rem": "asleep_rem",
               "asleep": "asleep_unspecified", "restless": "restless"}


def seconds(text):
    return int(datetime.datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc).timestamp())


def sleep(logs):
    rows = {}

    def add(metric, start, minutes):
        rows.setdefault("sleep_analysis." + metric, {})[start] = minutes
    for log in logs:
        add("in_bed", seconds(log["startTime"]), (seconds(log["endTime"]) - seconds(log["startTime"])) / 60)
        short = [(seconds(e["dateTime"]), seconds(e["dateTime"]) + e["seconds"]) for e in log["levels"].get("shortData", [])]
        per_level = {}
        for e in log["levels"]["data"]:
            if e["level"] == "unknown":  # Fitbit's filler where it has no stage: not stored
                continue
            a, b = seconds(e["dateTime"]), seconds(e["dateTime"]) + e["seconds"]
            covered = set()
            for s, t in short:
                covered.update(range(max(a, s), min(b, t)))
            # the span's seconds not under a short wake, as maximal runs
            run = None
            for x in range(a, b + 1):
                free = x < b and x not in covered
                if free and run is None:
                    run = x
                elif not free and run is not None:
                    add(SLEEP_NAMES[e["level"]], run, (x - run) / 60)
                    per_level[e["level"]] = per_level.get(e["level"], 0) + (x - run) / 60
                    run = None
        for s, t in short:
            add("awake", s, (t - s) / 60)
            per_level["wake"] = per_level.get("wake", 0) + (t - s) / 60
        # Stages logs: the levels, short wakes cut out, are Fitbit's summary (within its rounding) on
        # nearly every night; a night whose summary differs is named on stderr. Classic logs' summaries
        # of 2015 differ from their own levels (asleep up to 15 min fewer): the levels are what is stored.
        for level, summary in log["levels"]["summary"].items() if log["type"] == "stages" else ():
            if abs(per_level.get(level, 0) - summary["minutes"]) > 1:
                print(f"log {log['logId']}: {level} {per_level.get(level, 0)} min, summary {summary['minutes']}", file=sys.stderr)
    return {m: total(v) for m, v in sorted(rows.items())}


def total(values):
    return {"count": len(values), "sum": float(sum(values.values()))}


def count(path):
    path = pathlib.Path(path)
    if path.suffix == ".csv":
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        if rows[0][:3] == ["sleep_log_entry_id", "timestamp", "overall_score"]:
            names = {"overall_score": "fitbit.sleep_score", "composition_score": "fitbit.sleep_score_composition",
                     "revitalization_score": "fitbit.sleep_score_revitalization",
                     "duration_score": "fitbit.sleep_score_duration", "restlessness": "fitbit.sleep_restlessness"}
            out = {}
            for r in rows[1:]:
                if not r:
                    continue
                for column, metric in names.items():
                    cell = r[rows[0].index(column)]
                    if cell:
                        out.setdefault(metric, {})[r[1]] = float(cell)
            return {m: total(v) for m, v in sorted(out.items())}
        if rows[0][:2] == ["timestamp", "rmssd"]:
            return {"heart_rate_variability_rmssd": total({r[0]: float(r[1]) for r in rows[1:] if r})}
        assert rows[0][:2] == ["timestamp", "beats per minute"]
        return {"heart_rate": total({r[0]: float(r[1]) for r in rows[1:] if r})}
    data = json.loads(path.read_text(encoding="utf-8"))
    if "dateOfSleep" in data[0]:
        return sleep(data)
    if "bpm" in data[0]["value"]:
        return {"heart_rate": total({d["dateTime"]: float(d["value"]["bpm"]) for d in data})}
    days = {}
    for d in data:
        v = d["value"]
        if v.get("value"):
            days[v.get("date") or d["dateTime"][:8]] = float(v["value"])
    return {"resting_heart_rate": total(days)} if days else {}


def compute():
    return {"files": [{"file": name, "vendor": "Fitbit", "language": "en", "layout": layout, "format": fmt,
                       "timezone": tz, "measurements": count(HERE / name), "events": {}}
                      for name, fmt, tz, layout in FILES]}


if __name__ == "__main__":
    main(HERE, compute, count)
