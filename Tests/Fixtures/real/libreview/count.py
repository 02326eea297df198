#!/usr/bin/env python3
"""Independent counter for the LibreView excerpts (Python 3 standard library only; never HealthPipe).

Reads each file the way LibreView lays it out: a 0-2 line preamble, then a header row whose columns
are always in the same order in every language (Device, Serial Number, Device Timestamp, Record Type,
Historic Glucose, Scan Glucose, Non-numeric Rapid-Acting Insulin, Rapid-Acting Insulin (units),
Non-numeric Food, Carbohydrates (grams), Carbohydrates (servings), Non-numeric Long-Acting Insulin,
Long-Acting Insulin (units), Notes, Strip Glucose, Ketone, Meal Insulin, Correction Insulin,
User Change Insulin [, Historic Ketone, Scan Ketone]), so it finds columns by position, not by word.
Record types: 0 historic, 1 scan, 2 strip, 3 ketone test, 4 insulin, 5 food, 6 note.

Writes expected.json (`python3 count.py`); `--check` exits 1 when expected.json differs.
"""
import csv
import io
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
MMOL = 18.0156

# file -> (language, layout, timezone)
FILES = {
    "libreview-en-us-librelink-glucose-data.csv": ("en", "LibreLink app via LibreView, US 'Glucose Data' preamble, mg/dL, MM-DD-YYYY 12-hour clock", "America/Los_Angeles"),
    "libreview-en-us-patient-report.csv": ("en", "LibreView clinic 'Patient report' (2-line preamble), mg/dL, strip readings, MM-DD-YYYY 12-hour clock", "America/Los_Angeles"),
    "libreview-en-us-2020-scans-strips.csv": ("en", "LibreLink app via LibreView 2020, mg/dL, scans, strips and food", "America/Los_Angeles"),
    "libreview-en-eu-user-insulin-notes.csv": ("en", "LibreLink app via LibreView, English header from a European account, mg/dL, insulin doses, food, notes in one minute", "Europe/Madrid"),
    "libreview-en-mmol-crlf-notes.csv": ("en", "LibreLink app, mmol/L, CRLF, DD-MM-YYYY 24-hour, Long-Acting Insulin Value column, notes", "Europe/Amsterdam"),
    "libreview-de-real-blank-line.csv": ("de", "German LibreView export (umlauts stripped: Gerat, Geratezeitstempel), 'Glukose-Werte' preamble and an all-commas line, mg/dL, DD-MM-YYYY", "Europe/Berlin"),
    "libreview-de-real-food.csv": ("de", "German LibreView export, preamble directly above the header, mg/dL, DD-MM-YYYY, scans and a food entry", "Europe/Berlin"),
    "libreview-de-glukose-werte.csv": ("de", "German LibreView 'Glukose-Werte' preamble and blank line, mg/dL, DD-MM-YYYY", "Europe/Berlin"),
    "libreview-fr-valeur-de-glycemie.csv": ("fr", "French LibreView 'Valeur de glycémie' preamble, mg/dL, MM-DD-YYYY 12-hour clock, decimal comma in quoted insulin cells", "Africa/Algiers"),
    "libreview-es-datos-de-glucosa.csv": ("es", "Spanish LibreView 'Datos de glucosa', mg/dL, DD-MM-YYYY, scans", "Europe/Madrid"),
    "libreview-es-informe-del-paciente.csv": ("es", "Spanish clinic 'Informe del paciente' (2-line preamble), ';' separator, YYYY/MM/DD, Spain spellings", "Europe/Madrid"),
    "libreview-zh-tw-21-columns.csv": ("zh-TW", "Traditional Chinese header, 21 columns (two ketone columns), mg/dL, YYYY/MM/DD", "Asia/Taipei"),
    "libreview-zh-tw-real-librelink.csv": ("zh-TW", "Traditional Chinese LibreLink export (輔理善瞬感連線), '葡萄糖資料' preamble, CRLF, YYYY-MM-DD, mg/dL, 19 columns", "Asia/Taipei"),
    "libreview-nl-mmol.csv": ("nl", "Dutch header, mmol/l with decimal comma in quoted cells, DD-MM-YYYY", "Europe/Amsterdam"),
    "libreview-ru-english-header-mmol.csv": ("ru", "Russian preamble over the English header, mmol/L, DD-MM-YYYY", "Europe/Moscow"),
}


def number(cell):
    cell = cell.strip()
    if not cell:
        return None
    return float(cell.replace(",", "."))


def glucose_mgdl(cell, mmol):
    cell = cell.strip()
    if not cell:
        return None
    if cell.upper() in ("LO", "LOW"):
        return 40.0
    if cell.upper() in ("HI", "HIGH"):
        return 500.0
    v = number(cell)
    return float(round(v * MMOL)) if mmol else v


def read(path):
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig")
    lines = text.splitlines()
    # The header is the first line whose 4th cell is a word and whose next line's 4th cell is a number.
    for i in range(min(10, len(lines) - 1)):
        delim = ";" if lines[i].count(";") > lines[i].count(",") else ","
        head = next(csv.reader([lines[i]], delimiter=delim))
        nxt = next(csv.reader([lines[i + 1]], delimiter=delim), [])
        if len(head) in (19, 21) and len(nxt) == len(head) and not head[3].strip().isdigit() and nxt[3].strip().isdigit():
            rows = list(csv.reader(io.StringIO("\n".join(lines[i + 1:])), delimiter=delim))
            return head, rows
    raise SystemExit(f"{path.name}: no LibreView header")


def count(path):
    head, rows = read(path)
    mmol = "mmol" in head[4].lower()
    width = len(head)
    ketone_cols = [15] + ([19, 20] if width == 21 else [])
    value_cols = [i for i in range(4, width)]
    meas = {}   # (metric, source, time) -> value
    events = {}  # (kind, subtype, source, time, amount) -> amount
    for r in rows:
        if not any(c.strip() for c in r):
            continue
        t = int(r[3])
        device = r[0].strip() or "FreeStyle Libre"
        ts = r[2].strip()

        def ketones():
            for k in ketone_cols:
                v = number(r[k])
                if v is not None:
                    meas[("ketone", device, ts)] = v

        if t in (0, 1, 2):
            col, metric, source = {0: (4, "glucose", device), 1: (5, "glucose", device + " (scan)"),
                                   2: (14, "blood_glucose", device)}[t]
            g = glucose_mgdl(r[col], mmol)
            if g is not None:
                meas[(metric, source, ts)] = g
            ketones()
            continue
        if all(not r[i].strip() for i in value_cols):
            continue  # an empty entry carries nothing
        if t == 3 and any(r[k].strip() for k in ketone_cols):
            ketones()
        elif t == 4:
            rapid = number(r[7])
            parts = [number(r[i]) for i in (16, 17, 18) if number(r[i]) is not None]
            long = number(r[12])
            added = False
            if rapid is not None or parts:
                amount = rapid if rapid is not None else sum(parts)
                events[("insulin", "bolus", device, ts, amount)] = amount
                added = True
            elif r[6].strip():
                events[("insulin", "bolus", device, ts, None)] = None
                added = True
            if long is not None:
                events[("insulin", "basal", device, ts, long)] = long
                added = True
            elif r[11].strip():
                events[("insulin", "basal", device, ts, None)] = None
                added = True
            if not added:
                events[("note", "", device, ts, None)] = None
        elif t == 5:
            grams = number(r[9])
            events[("meal", "", device, ts, grams)] = grams
        else:
            sub = "" if t == 6 else ("unknown" if t == 3 else f"record type {t}")
            events[("note", sub, device, ts, None)] = None
    out_m, out_e = {}, {}
    for (metric, _, _), v in meas.items():
        m = out_m.setdefault(metric, {"count": 0, "sum": 0.0})
        m["count"] += 1
        m["sum"] = round(m["sum"] + v, 6)
    for (kind, _, _, _, _), amount in events.items():
        e = out_e.setdefault(kind, {"count": 0})
        e["count"] += 1
        if kind in ("insulin", "meal"):
            e["sum"] = round(e.get("sum", 0.0) + (amount or 0.0), 6)
    return out_m, out_e


def main():
    if len(sys.argv) > 1 and sys.argv[1] != "--check":
        for p in sys.argv[1:]:  # count any file (e.g. a full original kept outside the repo)
            print(p, json.dumps(count(pathlib.Path(p)), ensure_ascii=False))
        return
    files = []
    for name, (lang, layout, tz) in FILES.items():
        m, e = count(HERE / name)
        files.append({"file": name, "vendor": "LibreView", "language": lang, "layout": layout, "format": "libreview",
                      "timezone": tz, "measurements": m, "events": e})
    doc = {"files": files}
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    target = HERE / "expected.json"
    if "--check" in sys.argv[1:]:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            print("expected.json differs from what count.py computes")
            sys.exit(1)
        print(f"{len(files)} files agree")
        return
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.name}: {len(files)} files")


if __name__ == "__main__":
    main()
