#!/usr/bin/env python3
"""Independent counter for Garmin Connect exports (Python 3 stdlib only; never HealthPipe).

Activities.csv ("Export CSV" on Garmin Connect's activities list), header in the account's language:
- one row per activity; its first four columns are the activity type, the start date and time
  (`YYYY-MM-DD HH:MM:SS`, local), favourite and title; the Time column is its duration.
- numbers: in the account's number format, one per file: `1,234.5` (most files) or `1.234,5` (the
  2026 English file: `"3,40"` km); this counter tells them apart by the Distance column (a distance
  with one or two decimals). `--` (`--:--:--` for a duration) is no value, and so is `NaN`
  (`00:NaN:NaN`), which the 2024 English export writes in whole columns; durations `h:mm:ss`,
  `m:ss`, with an optional fraction of a second (`4:47.8`, `00:01:39,6`); a 2025 Danish export writes
  Time as `h:mm` (see time()).
- Distance: written with a decimal point in the account's unit (km, or miles for the 2017 file: its
  "5k" races are 3.11), as a whole number in metres (yards) (pool and open-water swims, track runs).
`distance_unit` (the account's, which the file does not say) is what an import must be given.
Every activity is one exercise event; a row repeating an earlier row exactly is stored once, a row
with another row's type and start but other values is quarantined (the first is kept). The type is
the event's subtype, so rows of one sport in two spellings would be two types here. Totals over the distinct events: duration (min), distance (km), energy (kcal), steps, and how
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
    ("Activities-sv.csv", "sv", "Europe/Stockholm", "km", "Connect activities list, Swedish, 2025, km, pool swims in metres"),
    ("Activities-hu.csv", "hu", "Europe/Budapest", "km", "Connect activities list, Hungarian, 2024, two recordings of one run at one start"),
    ("Activities-fi-2019.csv", "fi", "Europe/Helsinki", "km", "Connect activities list, Finnish, 2019 (type keys, no heart-rate columns)"),
    ("Activities-en-2026-comma.csv", "en", "Europe/London", "km", "Connect activities list, English, 2026, number format 1.234,5, --:--:-- times"),
    ("Activities-en-swim.csv", "en", "Europe/Berlin", "km", "Connect activities list, English, 2026, pool swims in metres"),
    ("Activities-da-2025.csv", "da", "Europe/Copenhagen", "km", "Connect activities list, Danish, 2025 (44 columns), Time as h:mm, swims in metres"),
    ("Activities-pl.csv", "pl", "Europe/Warsaw", "km", "Connect activities list, Polish, 2021, km"),
    ("Activities-en-2024-nan.csv", "en", "Asia/Kathmandu", "km", "Connect activities list, English, 2024, NaN columns and 00:NaN:NaN times"),
]

# kilometres per unit: decimals are the account's unit, whole numbers its short unit
KM = {"km": (1.0, 0.001), "mi": (1.609344, 0.0009144)}

# The header words this counter knows, per field (from the files themselves).
WORDS = {
    "distance": {"Distance", "Distanz", "Distância", "Distancia", "Distans", "Távolság", "Matka", "Dystans"},
    "calories": {"Calories", "Kalorier", "Kalorien", "Calorias", "Calorías", "Kalóriaszám", "Kalorit", "Kalorie"},
    "time": {"Time", "Tid", "Zeit", "Tempo", "Tiempo", "Idő", "Aika", "Czas"},
    "elapsed": {"Elapsed Time", "Verstrichene Zeit", "Duração", "Tiempo transcurrido", "Total tid", "Eltelt idő",
                "Tidsforbrug", "Upłynęło czasu"},
    "moving": {"Moving Time", "Zeit in Bewegung", "Tempo em movimento", "Tiempo en movimiento", "Färdtid", "Menetidő",
               "Tid i bevægelse", "Czas ruchu"},
    "avg_hr": {"Avg HR", "Gennemsnitlig puls", "Ø Herzfrequenz", "FC Média", "Frecuencia cardiaca media", "Medelpuls",
               "Átlagos pulzusszám", "Keskisyke", "Średnie tętno"},
    "steps": {"Steps", "Pasos", "Steg", "Lépések", "Skridt", "Kroki"},
}


def number(text, dec):
    if text in ("--", "", "NaN"):
        return None
    grp = "," if dec == "." else "."
    assert re.fullmatch(r"-?(\d{1,3}(%s\d{3})+|\d+)(%s\d+)?" % (re.escape(grp), re.escape(dec)), text), text
    return float(text.replace(grp, "").replace(dec, ".")), dec not in text


def minutes(text, dec):
    if text in ("--", "", "--:--:--") or re.fullmatch(r"[\d:]*NaN[\d:NaN]*", text):
        return None
    m = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d(?:%s\d+)?)" % re.escape(dec), text)
    assert m, text
    h = int(m.group(1) or 0)
    return (h * 3600 + int(m.group(2)) * 60 + float(m.group(3).replace(dec, "."))) / 60


def time(r, col, dec):
    """The Time column in minutes. `mm:ss` — except that a 2025 Danish export rounds Time to `h:mm`
    (`0:45` beside an elapsed `00:45:17`): read so when the row's elapsed (else moving) time is nearer."""
    t = minutes(r[col["time"]], dec)
    ref = next((minutes(r[col[k]], dec) for k in ("elapsed", "moving") if col[k] is not None and minutes(r[col[k]], dec) is not None), None)
    cell = r[col["time"]]
    if t is None or ref is None or cell.count(":") != 1 or dec in cell:
        return t
    mm, ss = cell.split(":")
    as_hours = int(mm) * 60 + int(ss)
    return as_hours if abs(as_hours - ref) < abs(t - ref) else t


def count(path, unit="km"):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    col = {k: next((i for i, h in enumerate(header) if h in words), None) for k, words in WORDS.items()}
    comma = any(re.fullmatch(r"\d+,\d\d?", r[col["distance"]]) for r in rows[1:] if r)
    dec = "," if comma else "."
    events, first, quarantined = {}, {}, 0
    for r in rows[1:]:
        if not r:
            continue
        assert len(r) == len(header), r
        key = (r[0].lower(), r[1])
        if key in events:
            quarantined += first[key] != r
            continue
        first[key] = r
        e = {"minutes": time(r, col, dec)}
        d = number(r[col["distance"]], dec) if col["distance"] is not None else None
        if d is not None:
            e["km"] = d[0] * KM[unit][1 if d[1] else 0]
        for k in ("calories", "avg_hr", "steps"):
            v = number(r[col[k]], dec) if col[k] is not None else None
            if v is not None:
                e[k] = v[0]
        events[key] = e
    ev = events.values()
    return {"exercise": {"count": len(events)}}, quarantined, {
        "duration_min": round(sum(e["minutes"] or 0 for e in ev), 6),
        "distance_km": round(sum(e.get("km", 0) for e in ev), 6),
        "energy_kcal": round(sum(e.get("calories", 0) for e in ev), 6),
        "steps": round(sum(e.get("steps", 0) for e in ev), 6),
        "with_heart_rate": sum(1 for e in ev if "avg_hr" in e),
    }


def compute():
    out = []
    for name, lang, tz, unit, layout in FILES:
        events, quarantined, totals = count(HERE / name, unit)
        f = {"file": name, "vendor": "Garmin Connect", "language": lang, "layout": layout,
             "format": "garmin-activities", "timezone": tz, "distance_unit": unit, "measurements": {},
             "events": events, "exercise_totals": totals}
        if quarantined:
            f["quarantined"] = quarantined
        out.append(f)
    return {"files": out}


if __name__ == "__main__":
    main(HERE, lambda: compute(), lambda p: count(p))
