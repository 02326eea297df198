#!/usr/bin/env python3
"""Independent counter for Garmin Connect exports (Python 3 stdlib only; never HealthPipe).

Activities.csv ("Export CSV" on Garmin Connect's activities list), header in the account's language:
- one row per activity; its first four columns are the activity type, the start date and time
  (`YYYY-MM-DD HH:MM:SS`, local), favourite and title; the Time column is its duration.
- numbers: `.` decimal point, `,` thousands (`"1,825"`), `--` for no value; durations `h:mm:ss`,
  `m:ss`, with an optional fraction of a second (`4:47.8`).
- Distance: written with a decimal point in the account's unit (km, or miles for the 2017 file: its
  "5k" races are 3.11), as a whole number in metres (yards) (pool and open-water swims, track runs).
`distance_unit` (the account's, which the file does not say) is what an import must be given.
Every activity is one exercise event; activities of one type starting at one second are one stored
row. Totals over the distinct events: duration (min), distance (km), energy (kcal), steps, and how
many carry an average heart rate.
`python3 count.py` writes expected.json; `--check` exits 1 when it differs."""
import csv, pathlib, re, sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import main  # noqa: E402

FILES = [
    ("Activities-en-2025.csv", "en", "Europe/Warsaw", "km", "Connect activities list, 2025 layout (Steps, Moving/Elapsed Time), km"),
    ("Activities-en-2017.csv", "en", "America/Chicago", "mi", "Connect activities list, 2017 layout (m:ss times, lowercase type keys), miles"),
    ("Activities-da.csv", "da", "Europe/Copenhagen", "km", "Connect activities list, Danish, 2020, km"),
    ("Activities-de.csv", "de", "Europe/Zurich", "km", "Connect activities list, German, 2022, km and a track run in metres"),
    ("Activities-pt.csv", "pt", "America/Sao_Paulo", "km", "Connect activities list, Portuguese, 2021, unquoted cells, swims in metres"),
    ("Activities-es.csv", "es", "Europe/Madrid", "km", "Connect activities list, Spanish, 2025, km"),
]

# kilometres per unit: decimals are the account's unit, whole numbers its short unit
KM = {"km": (1.0, 0.001), "mi": (1.609344, 0.0009144)}

# The header words this counter knows, per field (from the files themselves).
WORDS = {
    "distance": {"Distance", "Distanz", "Distância", "Distancia"},
    "calories": {"Calories", "Kalorier", "Kalorien", "Calorias", "Calorías"},
    "time": {"Time", "Tid", "Zeit", "Tempo", "Tiempo"},
    "avg_hr": {"Avg HR", "Gennemsnitlig puls", "Ø Herzfrequenz", "FC Média", "Frecuencia cardiaca media"},
    "steps": {"Steps", "Pasos"},
}


def number(text):
    if text in ("--", ""):
        return None
    assert re.fullmatch(r"-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?", text), text
    return float(text.replace(",", "")), "." not in text


def minutes(text):
    if text in ("--", ""):
        return None
    m = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d(?:\.\d+)?)", text)
    assert m, text
    h = int(m.group(1) or 0)
    return (h * 3600 + int(m.group(2)) * 60 + float(m.group(3))) / 60


def count(path, unit="km"):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    col = {k: next((i for i, h in enumerate(header) if h in words), None) for k, words in WORDS.items()}
    events = {}
    for r in rows[1:]:
        if not r:
            continue
        assert len(r) == len(header), r
        key = (r[0].lower(), r[1])
        if key in events:
            continue
        e = {"minutes": minutes(r[col["time"]])}
        d = number(r[col["distance"]]) if col["distance"] is not None else None
        if d is not None:
            e["km"] = d[0] * KM[unit][1 if d[1] else 0]
        for k in ("calories", "avg_hr", "steps"):
            v = number(r[col[k]]) if col[k] is not None else None
            if v is not None:
                e[k] = v[0]
        events[key] = e
    ev = events.values()
    return {"exercise": {"count": len(events)}}, {
        "duration_min": round(sum(e["minutes"] or 0 for e in ev), 6),
        "distance_km": round(sum(e.get("km", 0) for e in ev), 6),
        "energy_kcal": round(sum(e.get("calories", 0) for e in ev), 6),
        "steps": round(sum(e.get("steps", 0) for e in ev), 6),
        "with_heart_rate": sum(1 for e in ev if "avg_hr" in e),
    }


def compute():
    out = []
    for name, lang, tz, unit, layout in FILES:
        events, totals = count(HERE / name, unit)
        out.append({"file": name, "vendor": "Garmin Connect", "language": lang, "layout": layout,
                    "format": "garmin-activities", "timezone": tz, "distance_unit": unit, "measurements": {},
                    "events": events, "exercise_totals": totals})
    return {"files": out}


if __name__ == "__main__":
    main(HERE, lambda: compute(), lambda p: count(p))
