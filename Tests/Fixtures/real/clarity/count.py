#!/usr/bin/env python3
"""Independent counter for the Dexcom Clarity excerpts (Python 3 stdlib only, never HealthPipe).

Reads each file as Clarity writes it: optional UTF-8 BOM, `,` or `;` separators, quoted cells,
a header row, untimed metadata rows, then timed rows. The Event Type code says what a row is:
EGV -> glucose measurement; Calibration / Fasting Glucose -> blood_glucose measurement;
Carbs -> meal (carbs), Insulin -> insulin (units), Exercise -> exercise, Health -> episode,
Alert -> alert, Device -> device. Glucose in mmol/L is converted x 18.0156 and rounded.
Low/High readings count at 40/400 mg/dL. Writes expected.json; --check exits 1 on a difference."""
import csv, datetime, html, io, pathlib, re, sys, zipfile, zoneinfo

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from expected_io import write_or_check  # noqa: E402

# Per file: what it is (the counter's own reading of Clarity's layout, by language).
FILES = [
    dict(file="clarity-en-g7-mgdl.csv", language="en", layout="Clarity CSV, G7 iOS app, 14 columns, quoted, mg/dL",
         timezone="Europe/Kyiv"),
    dict(file="clarity-ja-g7-mgdl.csv", language="ja", layout="Clarity CSV, G7 Android app, Japanese, BOM+CRLF, mg/dL",
         timezone="Asia/Tokyo"),
    dict(file="clarity-en-g6-edited-header.csv", language="en",
         layout="Clarity CSV, G6 Android app, BOM+CRLF, quoted, with calibrations; owner renamed the timestamp header, "
                "dropped the preamble", timezone="America/New_York"),
    dict(file="clarity-en-g6-12col-2016.csv", language="en",
         layout="Clarity CSV, older 12-column layout (no transmitter columns), unquoted, BOM+LF, DateOfBirth row",
         timezone="Europe/London"),
    dict(file="clarity-en-g7-numbers.xlsx", language="en", format="dexcom-clarity-xlsx",
         layout="Clarity CSV re-saved as .xlsx by Apple Numbers: title row (the CSV's name) above the header, "
                "numbers as numbers, text timestamps, G6 then G7 device rows, calibration, Low/High",
         timezone="America/Chicago"),
    dict(file="clarity-en-g7-excel-mac.xlsx", language="en", format="dexcom-clarity-xlsx",
         layout="the Numbers workbook re-saved by Microsoft Excel for Mac (count/uniqueCount strings, spans, "
                "A1 dimension): title row above the header, calibration, Low/High",
         timezone="America/Chicago"),
    dict(file="clarity-en-g6-numbers-dst-fallback.xlsx", language="en", format="dexcom-clarity-xlsx",
         layout="Apple Numbers .xlsx whose sheet is named after the table ('Sheet 1 - Clarity_Export_…'), G6, "
                "the DST fall-back night with Clarity's interleaved repeated hour",
         timezone="America/Chicago"),
]
# Event Type codes by meaning, per language (this counter's own table).
CODES = {
    "glucose": {"EGV"},
    "blood_glucose": {"Calibration", "Fasting Glucose", "空腹時グルコース"},
    "meal": {"Carbs", "食事"},
    "insulin": {"Insulin"},
    "exercise": {"Exercise", "活動"},
    "episode": {"Health"},
    "alert": {"Alert", "アラート"},
    "device": {"Device", "デバイス"},
}
LOW, HIGH = {"Low", "Niedrig", "Bas"}, {"High", "Hoch"}


def number(s):
    return float(s.replace(",", "."))


def column(ref):
    n = 0
    for ch in ref:
        n = n * 26 + ord(ch) - 64
    return n - 1


def xlsx_rows(path):
    """The first worksheet as rows of text: shared strings, inline strings, numbers as written."""
    z = zipfile.ZipFile(path)
    strings = []
    if "xl/sharedStrings.xml" in z.namelist():
        sst = z.read("xl/sharedStrings.xml").decode()
        strings = [html.unescape("".join(re.findall(r"<t[^>]*>(.*?)</t>", si, re.S)))
                   for si in re.findall(r"<si>(.*?)</si>", sst, re.S)]
    sheet = z.read("xl/worksheets/sheet1.xml").decode()
    rows = []
    for row in re.findall(r"<row [^>]*>(.*?)</row>", sheet, re.S):
        cells = {}
        for ref, attrs, inner in re.findall(r'<c r="([A-Z]+)\d+"([^>]*?)(?:/>|>(.*?)</c>)', row, re.S):
            v = re.search(r"<v>(.*?)</v>", inner or "")
            t = re.search(r'\bt="(\w+)"', attrs)
            if t and t.group(1) == "inlineStr":
                text = html.unescape("".join(re.findall(r"<t[^>]*>(.*?)</t>", inner, re.S)))
            elif not v:
                text = ""
            elif t and t.group(1) == "s":
                text = strings[int(v.group(1))]
            else:
                text = html.unescape(v.group(1))
            cells[column(ref)] = text
        rows.append([cells.get(i, "") for i in range(max(cells) + 1)] if cells else [])
    return rows


def ambiguous(ts, zone):
    """True when the local time occurs twice in the zone (a DST fall-back hour)."""
    local = datetime.datetime.fromisoformat(ts)
    z = zoneinfo.ZoneInfo(zone)
    return local.replace(tzinfo=z, fold=0).utcoffset() != local.replace(tzinfo=z, fold=1).utcoffset()


def count(name, zone="UTC", quarantined=None):
    """quarantined (a list), when given, receives the readings HealthPipe must quarantine: the second of two
    sensor readings at the same local time, apart on the transmitter clock, outside a DST fall-back hour
    (the display device's clock moved back)."""
    if name.endswith(".xlsx"):
        rows = xlsx_rows(HERE / name)
    else:
        raw = (HERE / name).read_bytes().decode("utf-8-sig")
        first = raw.split("\n", 1)[0]
        delim = ";" if first.count(";") > first.count(",") else ","
        rows = list(csv.reader(io.StringIO(raw, newline=""), delimiter=delim))
    # The header is the first row naming a glucose unit (a spreadsheet app may put a title row above it).
    at = next(i for i, r in enumerate(rows) if any(h.endswith(("(mg/dL)", "(mmol/L)")) for h in r))
    header, rows = rows[at], rows[at:]
    if name.endswith(".xlsx"):  # a sheet row ends at its last cell: pad it to the header's width
        rows = [r + [""] * (len(header) - len(r)) for r in rows]
    # The timestamp column names its pattern; where its owner renamed it (`date_time`), Clarity's place: 2nd.
    ts_col = next((i for i, h in enumerate(header) if "Thh:mm:ss" in h), 1)
    g_col = next(i for i, h in enumerate(header) if h.endswith("(mg/dL)") or h.endswith("(mmol/L)"))
    mmol = "mmol" in header[g_col]
    type_col, ins_col, carb_col, dev_col = ts_col + 1, g_col + 1, g_col + 2, ts_col + 5
    meas, events = {}, {}
    seen_m, seen_e = set(), set()
    last_egv = None
    for r in rows[1:]:
        if len(r) <= g_col or not r[ts_col]:
            continue
        code, ts = r[type_col], r[ts_col]
        kind = next((k for k, codes in CODES.items() if code in codes), "note")
        if kind in ("glucose", "blood_glucose"):
            cell = r[g_col]
            v = 40.0 if cell in LOW else 400.0 if cell in HIGH else number(cell)
            if mmol and cell not in LOW | HIGH:
                v = float(round(v * 18.0156))
            # Rows of a DST repeated hour share a local time; the transmitter clock (Transmitter Time) tells them apart.
            ticks = r[g_col + 5] if len(r) > g_col + 5 else ""
            if kind == "glucose" and ticks:
                moved = last_egv is not None and last_egv[0] == ts and last_egv[1] != ticks and not ambiguous(ts, zone)
                last_egv = (ts, ticks)
                if moved:
                    if quarantined is not None:
                        quarantined.append(ts)
                    continue
            if (kind, ts, ticks) in seen_m:
                continue
            seen_m.add((kind, ts, ticks))
            m = meas.setdefault(kind, {"count": 0, "sum": 0.0})
            m["count"] += 1
            m["sum"] += v
            continue
        amount = number(r[ins_col]) if kind == "insulin" else number(r[carb_col]) if kind == "meal" else None
        key = (kind, ts, amount, r[dev_col] if kind == "device" else "")
        if key in seen_e:
            continue
        seen_e.add(key)
        e = events.setdefault(kind, {"count": 0} if amount is None else {"count": 0, "sum": 0.0})
        e["count"] += 1
        if amount is not None:
            e["sum"] += amount
    for d in list(meas.values()) + list(events.values()):
        if "sum" in d:
            d["sum"] = round(d["sum"], 4)
    return meas, events


def compute():
    out = []
    for f in FILES:
        meas, events = count(f["file"], f["timezone"])
        out.append({"file": f["file"], "vendor": "Dexcom Clarity", "language": f["language"], "layout": f["layout"],
                    "format": f.get("format", "dexcom-clarity"), "timezone": f["timezone"], "measurements": meas, "events": events})
    return {"files": out}


if __name__ == "__main__":
    write_or_check(HERE, compute(), echo=True)
