#!/usr/bin/env python3
"""Writes the small real-shaped samples of the formats no openly licensed real file exists for
(see samples/PROVENANCE.md): written from each format's documentation, deterministic (run it again
and the files are byte for byte the same).

  overlap/              one Dexcom G6 sensor's readings seen through three exports that overlap:
                        Clarity CSV (readings 0-35), Nightscout entries (12-47, three repeated by a
                        second uploader 1-2 s later), Tidepool cbg in mmol/L (24-59): 60 readings.
  dexcom-clarity/       an EU Clarity export (mmol/L, G6 then G7) as .xlsx and the same data as .csv
  tandem/               a t:connect Therapy Timeline CSV (readings, IOB, basal, boluses)
  nightscout/           mongoexport entries (extended JSON, one per line, with bad lines), Loop-style
                        treatments of every kind, device status
  tidepool/             a Tidepool JSON export with every imported data type and some that are not
  apple-health/side-files/  an export with an HRV beat-to-beat list, a workout with a GPX route and an
                        ECG, unpacked and zipped
"""
import datetime as dt
import json
import math
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = dt.timezone.utc
BERLIN_SUMMER = dt.timezone(dt.timedelta(hours=2))
MMOL = 18.01559  # Tidepool's own factor (its docs): stored values are mg/dL / 18.01559


def write(rel, text, mode="w"):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode, newline="" if mode == "w" else None) as f:
        f.write(text)


def glucose(i):
    """A smooth day curve in whole mg/dL."""
    return int(round(130 + 45 * math.sin(i / 9.0) + 12 * math.sin(i / 2.3)))


# --- overlap: one sensor through Clarity, Nightscout and Tidepool -----------------------------------
T0 = dt.datetime(2024, 6, 5, 6, 0, 13, tzinfo=UTC)
TRANSMITTER = "8G1ABC"


def reading_time(i):
    return T0 + dt.timedelta(seconds=300 * i)


def clarity_header(unit="mg/dL"):
    rate = "mg/dL/min" if unit == "mg/dL" else "mmol/L/min"
    return ("Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,Patient Info,Device Info,Source Device ID,"
            f"Glucose Value ({unit}),Insulin Value (u),Carb Value (grams),Duration (hh:mm:ss),"
            f"Glucose Rate of Change ({rate}),Transmitter Time (Long Integer),Transmitter ID")


def overlap():
    rows = [clarity_header()]
    meta = [["FirstName", "", "Sam"], ["LastName", "", "Sample"], ["Device", "", "", "Dexcom G6 Mobile App", "android G6"],
            ["Alert", "High", "", "", "android G6", "200"], ["Alert", "Low", "", "", "android G6", "70"]]
    idx = 1
    for m in meta:
        cells = [str(idx), ""] + m + [""] * (12 - len(m))
        rows.append(",".join(cells[:14]))
        idx += 1
    for i in range(36):
        local = reading_time(i).astimezone(BERLIN_SUMMER).strftime("%Y-%m-%dT%H:%M:%S")
        rows.append(f"{idx},{local},EGV,,,,android G6,{glucose(i)},,,,,{5_000_000 + 300 * i},{TRANSMITTER}")
        idx += 1
    write("overlap/clarity_g6_mgdl.csv", "\ufeff" + "\n".join(rows) + "\n")

    entries = []
    for i in range(12, 48):
        t = reading_time(i)
        ms = int(t.timestamp() * 1000)
        entries.append({"_id": f"66600{i:04d}aa", "sgv": glucose(i), "date": ms, "dateString": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                        "trend": 4, "direction": "Flat", "device": "share2", "type": "sgv", "utcOffset": 120})
        if i in (20, 30, 40):  # the same reading from a second uploader, 1-2 s later, without a direction
            entries.append({"_id": f"77700{i:04d}bb", "sgv": glucose(i), "date": ms + 1000 + (i % 2) * 1000,
                            "dateString": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "device": "xDrip-DexcomG6", "type": "sgv",
                            "utcOffset": 120})
    entries.reverse()  # the API returns newest first
    write("overlap/nightscout_entries.json", json.dumps(entries, indent=2) + "\n")

    data = []
    for i in range(24, 60):
        t = reading_time(i)
        data.append({"id": f"tp{i:05d}", "type": "cbg", "units": "mmol/L", "value": glucose(i) / MMOL,
                     "time": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "timezoneOffset": 120,
                     "deviceTime": (t + dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S"),
                     "deviceId": f"DexG6MobRec_{TRANSMITTER}", "uploadId": "upid_0123456789ab"})
    write("overlap/tidepool_cbg.json", json.dumps(data, indent=1) + "\n")


# --- EU Clarity: the same rows as .csv and .xlsx -----------------------------------------------------
def clarity_eu_rows():
    """Rows as lists of (kind, value): kind 's' text, 'n' number, 'd' timestamp, '' empty; 14 cells."""
    rows = []
    idx = 1

    def meta(cells):
        nonlocal idx
        rows.append([("n", idx), ("", "")] + cells + [("", "")] * (12 - len(cells)))
        idx += 1

    meta([("s", "FirstName"), ("", ""), ("s", "Eva")])
    meta([("s", "LastName"), ("", ""), ("s", "Muster")])
    meta([("s", "Device"), ("", ""), ("", ""), ("s", "Dexcom G6 Mobile App"), ("s", "android G6")])
    meta([("s", "Alert"), ("s", "High"), ("", ""), ("", ""), ("s", "android G6"), ("n", 11.1)])
    meta([("s", "Alert"), ("s", "Low"), ("", ""), ("", ""), ("s", "android G6"), ("n", 3.9)])
    meta([("s", "Device"), ("", ""), ("", ""), ("s", "Dexcom G7 Mobile App"), ("s", "android G7")])
    meta([("s", "Alert"), ("s", "Urgent Low"), ("", ""), ("", ""), ("s", "android G7"), ("n", 3.1)])
    start = dt.datetime(2023, 5, 1, 0, 2, 41)
    for i in range(120):
        t = start + dt.timedelta(seconds=300 * i)
        g7 = i >= 70  # the sensor changes from a G6 to a G7 in the afternoon
        device, tx = ("android G7", "G7AB12") if g7 else ("android G6", "8EE0XY")
        mmol = round((110 + 60 * math.sin(i / 11.0)) / 18.0156, 1)
        value = ("n", mmol)
        sub = ("", "")
        if i == 15:
            value, sub = ("s", "Low"), ("s", "Low")
        if i == 95:
            value, sub = ("s", "High"), ("s", "High")
        rows.append([("n", idx), ("d", t), ("s", "EGV"), sub, ("", ""), ("", ""), ("s", device), value, ("", ""), ("", ""),
                     ("", ""), ("", ""), ("n", 1_200_000 + 300 * i), ("s", tx)])
        idx += 1
        if i in (20, 60, 100):
            rows.append([("n", idx), ("d", t + dt.timedelta(minutes=2)), ("s", "Insulin"), ("s", "Fast-Acting"), ("", ""), ("", ""),
                         ("s", device), ("", ""), ("n", 4.5 if i != 60 else 6), ("", ""), ("", ""), ("", ""), ("", ""), ("", "")])
            idx += 1
            rows.append([("n", idx), ("d", t + dt.timedelta(minutes=3)), ("s", "Carbs"), ("", ""), ("", ""), ("", ""),
                         ("s", device), ("", ""), ("", ""), ("n", 45 if i != 60 else 60), ("", ""), ("", ""), ("", ""), ("", "")])
            idx += 1
        if i == 40:
            rows.append([("n", idx), ("d", t + dt.timedelta(minutes=1)), ("s", "Calibration"), ("", ""), ("", ""), ("", ""),
                         ("s", device), ("n", 6.2), ("", ""), ("", ""), ("", ""), ("", ""), ("", ""), ("", "")])
            idx += 1
        if i == 50:
            rows.append([("n", idx), ("d", t + dt.timedelta(minutes=1)), ("s", "Exercise"), ("s", "Medium"), ("", ""), ("", ""),
                         ("s", device), ("", ""), ("", ""), ("", ""), ("s", "0:45:00"), ("", ""), ("", ""), ("", "")])
            idx += 1
        if i == 110:
            rows.append([("n", idx), ("d", t + dt.timedelta(minutes=1)), ("s", "Insulin"), ("s", "Long-Acting"), ("", ""), ("", ""),
                         ("s", device), ("", ""), ("n", 18), ("", ""), ("", ""), ("", ""), ("", ""), ("", "")])
            idx += 1
    return rows


def csv_cell(kind, value):
    if kind == "d":
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    if kind == "n":
        return str(value)
    return str(value)


def clarity_eu():
    rows = clarity_eu_rows()
    lines = [clarity_header("mmol/L")] + [",".join(csv_cell(k, v) for k, v in r) for r in rows]
    write("dexcom-clarity/clarity_eu_mmol.csv", "\ufeff" + "\n".join(lines) + "\n")

    header = clarity_header("mmol/L").split(",")
    shared, index = [], {}

    def sst(text):
        if text not in index:
            index[text] = len(shared)
            shared.append(text)
        return index[text]

    def col(i):
        s = ""
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            s = chr(65 + r) + s
        return s

    def esc(s):
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    epoch = dt.datetime(1899, 12, 30)
    xml_rows = []
    all_rows = [[("s", h) for h in header]] + rows
    for r_i, row in enumerate(all_rows, 1):
        cells = []
        for c_i, (kind, value) in enumerate(row):
            ref = f"{col(c_i)}{r_i}"
            if kind == "":
                continue  # sparse: empty cells are absent, as Excel writes them
            if kind == "d":
                serial = (value - epoch).total_seconds() / 86400
                cells.append(f'<c r="{ref}" s="1"><v>{serial!r}</v></c>')
            elif kind == "n":
                cells.append(f'<c r="{ref}"><v>{value}</v></c>')
            elif c_i == 3 and kind == "s":  # Event Subtype cells as inline strings (both kinds occur in the wild)
                cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{esc(value)}</t></is></c>')
            else:
                cells.append(f'<c r="{ref}" t="s"><v>{sst(value)}</v></c>')
        xml_rows.append(f'<row r="{r_i}">' + "".join(cells) + "</row>")
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' \
         'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    sheet1 = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {ns}><sheetData>' + "".join(xml_rows) \
        + "</sheetData></worksheet>"
    sheet2 = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {ns}><sheetData>' \
        f'<row r="1"><c r="A1" t="s"><v>{sst("Export information")}</v></c></row>' \
        f'<row r="2"><c r="A2" t="s"><v>{sst("Glucose unit")}</v></c><c r="B2" t="s"><v>{sst("mmol/L")}</v></c></row>' \
        "</sheetData></worksheet>"
    sst_xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' \
        f'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{len(shared)}" uniqueCount="{len(shared)}">' \
        + "".join(f"<si><t>{esc(s)}</t></si>" for s in shared) + "</sst>"
    parts = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
        "_rels/.rels": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook {ns}><workbookPr/><sheets>'
        '<sheet name="CLARITY Export" sheetId="1" r:id="rId1"/><sheet name="Info" sheetId="2" r:id="rId2"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/>'
        '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
        '<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        "xl/styles.xml": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\Thh:mm:ss"/></numFmts>'
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" applyNumberFormat="1"/></cellXfs></styleSheet>',
        "xl/sharedStrings.xml": sst_xml,
        "xl/worksheets/sheet1.xml": sheet1,
        "xl/worksheets/sheet2.xml": sheet2,
    }
    path = os.path.join(HERE, "dexcom-clarity/clarity_eu_mmol.xlsx")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(zipfile.ZipInfo(name, (2023, 5, 2, 9, 0, 0)), text, compress_type=zipfile.ZIP_DEFLATED)


# --- Tandem t:connect Therapy Timeline ---------------------------------------------------------------
def tandem():
    out = ["Tandem Diabetes Care Inc.", "t:connect Therapy Timeline Data Export", "Patient Name, Sam Sample",
           "Patient DOB, 2/3/1985", "Report Generated On, 6/6/2024 9:15:02 AM", ""]
    out.append("DeviceType,SerialNumber,Description,EventDateTime,Readings (CGM / BGM)")
    start = dt.datetime(2024, 6, 5, 0, 1, 33)
    for i in range(48):
        t = (start + dt.timedelta(seconds=300 * i)).strftime("%Y-%m-%dT%H:%M:%S")
        out.append(f'"t:slim X2 Insulin Pump","90412345","EGV","{t}","{glucose(i + 7)}",')
    out.append('"t:slim X2 Insulin Pump","90412345","BG","2024-06-05T02:10:00","131",')
    out.append('"t:slim X2 Insulin Pump","90412345","EGV","2024-06-05T04:30:00","abc",')  # a broken reading
    out.append("")
    out.append("Type,EventID,EventDateTime,IOB")
    for k, (t, iob) in enumerate([("00:00:19", "1.24"), ("01:00:21", "0.80"), ("02:05:11", "2.95"), ("03:10:40", "2.10")]):
        out.append(f'"IOB","{81 + k}","2024-06-05T{t}","{iob}"')
    out.append("")
    out.append("Type,EventDateTime,BasalRate")
    for t, r in [("00:00:00", "0.85"), ("03:00:00", "0.95"), ("06:00:00", "0.80")]:
        out.append(f'"Basal","2024-06-05T{t}","{r}"')
    out.append("")
    cols = ["Type", "Description", "BG", "IOB", "BolusRequestID", "BolusCompletionID", "CompletionDateTime", "InsulinDelivered",
            "FoodDelivered", "CorrectionDelivered", "CompletionStatusID", "CompletionStatusDesc", "BolusIsComplete",
            "BolexCompletionID", "BolexSize", "BolexStartDateTime", "BolexCompletionDateTime", "BolexInsulinDelivered", "BolexIOB",
            "BolexCompletionStatusID", "BolexCompletionStatusDesc", "ExtendedBolusIsComplete", "EventDateTime", "RequestDateTime",
            "BolusType", "BolusRequestOptions", "StandardPercent", "Duration", "CarbSize", "UserOverride", "TargetBG",
            "CorrectionFactor", "FoodBolusSize", "CorrectionBolusSize", "ActualTotalBolusRequested", "IsQuickBolus",
            "EventHistoryReportEventDesc", "EventHistoryReportDetails", "NoteID", "IndexID", "Note"]
    out.append(",".join(cols))

    def bolus(**v):
        return ",".join(f'"{v[c]}"' if c in v else "" for c in cols)
    out.append(bolus(Type="Bolus", Description="Standard/Correction", BG="162", IOB="0.71", BolusRequestID="7001.000",
                     BolusCompletionID="7001.000", CompletionDateTime="2024-06-05T02:06:26", InsulinDelivered="5.53",
                     FoodDelivered="5.00", CorrectionDelivered="0.53", CompletionStatusID="3", CompletionStatusDesc="Completed",
                     BolusIsComplete="1", EventDateTime="2024-06-05T02:05:00", RequestDateTime="2024-06-05T02:05:00",
                     BolusType="Carb", BolusRequestOptions="Standard/Correction", StandardPercent="100.00", Duration="0",
                     CarbSize="50", UserOverride="0", TargetBG="110", CorrectionFactor="30.00", FoodBolusSize="5.00",
                     CorrectionBolusSize="0.53", ActualTotalBolusRequested="5.53", IsQuickBolus="0"))
    out.append(bolus(Type="Bolus", Description="Extended 50.00/2.00", BG="140", BolusRequestID="7002.000", BolusCompletionID="7002.000",
                     CompletionDateTime="2024-06-05T03:01:10", InsulinDelivered="4.00", FoodDelivered="4.00", CompletionStatusID="3",
                     CompletionStatusDesc="Completed", BolusIsComplete="1", BolexCompletionID="7002.000", BolexSize="2.00",
                     BolexStartDateTime="2024-06-05T03:01:10", BolexCompletionDateTime="2024-06-05T05:01:10",
                     BolexInsulinDelivered="2.00", BolexCompletionStatusID="3", BolexCompletionStatusDesc="Completed",
                     ExtendedBolusIsComplete="1", EventDateTime="2024-06-05T03:00:00", RequestDateTime="2024-06-05T03:00:00",
                     BolusType="Carb", BolusRequestOptions="Extended", StandardPercent="50.00", Duration="120", CarbSize="40",
                     UserOverride="0", TargetBG="110", CorrectionFactor="30.00", FoodBolusSize="4.00", CorrectionBolusSize="0.00",
                     ActualTotalBolusRequested="4.00", IsQuickBolus="0"))
    out.append(bolus(Type="Bolus", Description="Automatic Bolus/Correction", BolusRequestID="7003.000", BolusCompletionID="7003.000",
                     CompletionDateTime="2024-06-05T03:40:05", InsulinDelivered="0.61", CompletionStatusID="3",
                     CompletionStatusDesc="Completed", BolusIsComplete="1", EventDateTime="2024-06-05T03:40:00",
                     RequestDateTime="2024-06-05T03:40:00", BolusType="Automatic", CarbSize="0", ActualTotalBolusRequested="0.61",
                     IsQuickBolus="0"))
    write("tandem/tconnect_therapy_timeline.csv", "\n".join(out) + "\n")


# --- Nightscout: mongoexport, Loop-style treatments, device status -------------------------------------
def nightscout():
    base = dt.datetime(2024, 2, 10, 7, 0, 0, tzinfo=UTC)
    lines = []
    for i in range(40):
        t = base + dt.timedelta(seconds=300 * i + 9)
        ms = int(t.timestamp() * 1000)
        oid = f"65c71e{i:018x}"
        date = {"$date": {"$numberLong": str(ms)}} if i % 3 == 0 else {"$numberLong": str(ms)} if i % 3 == 1 else ms
        doc = {"_id": {"$oid": oid}, "sgv": glucose(i) if i % 5 else str(glucose(i)), "date": date,
               "dateString": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "trend": 4, "direction": "Flat", "device": "share2",
               "type": "sgv", "utcOffset": {"$numberInt": "60"}, "sysTime": {"$date": t.strftime("%Y-%m-%dT%H:%M:%S.000Z")}}
        lines.append(json.dumps(doc, separators=(",", ":")))
    lines.insert(10, json.dumps({"_id": {"$oid": "65c71effffffffffffffff01"}, "sgv": 5, "date": int(base.timestamp() * 1000) + 3000,
                                 "direction": "NOT COMPUTABLE", "device": "share2", "type": "sgv"}, separators=(",", ":")))
    lines.insert(20, '{"_id":{"$oid":"65c71effffffffffffffff02"},"sgv":118,"date":170755' + "")  # cut mid-document
    lines.insert(30, json.dumps({"_id": {"$oid": "65c71effffffffffffffff03"}, "type": "mbg", "mbg": 126,
                                 "date": {"$date": (base + dt.timedelta(minutes=61)).strftime("%Y-%m-%dT%H:%M:%S.000Z")},
                                 "device": "xDrip-DexcomG6"}, separators=(",", ":")))
    lines.insert(35, json.dumps({"_id": {"$oid": "65c71effffffffffffffff04"}, "type": "cal", "slope": 1000, "intercept": 25000,
                                 "scale": 1, "date": int(base.timestamp() * 1000) + 60000}, separators=(",", ":")))
    write("nightscout/nightscout_mongoexport_entries.json", "\n".join(lines) + "\n")

    t0 = dt.datetime(2024, 2, 10, 7, 0, 0, tzinfo=UTC)

    def at(minutes):
        return (t0 + dt.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    treatments = [
        {"_id": "65c7a1", "eventType": "Meal Bolus", "created_at": at(5), "insulin": 4.2, "carbs": 48, "protein": 20, "fat": 15,
         "enteredBy": "loop://iPhone", "notes": "porridge", "utcOffset": 60},
        {"_id": "65c7a2", "eventType": "Correction Bolus", "created_at": at(95), "insulin": 1.35, "enteredBy": "loop://iPhone", "utcOffset": 60},
        {"_id": "65c7a3", "eventType": "Bolus", "created_at": at(130), "insulin": 0.3, "enteredBy": "loop://iPhone",
         "automatic": True, "utcOffset": 60},
        {"_id": "65c7a4", "eventType": "Temp Basal", "created_at": at(140), "duration": 30, "rate": 1.25, "absolute": 1.25,
         "enteredBy": "loop://iPhone", "reason": "Predicted high", "utcOffset": 60},
        {"_id": "65c7a5", "eventType": "Temp Basal", "created_at": at(170), "duration": 30, "percent": -100, "rate": 0, "absolute": 0,
         "enteredBy": "loop://iPhone", "utcOffset": 60},
        {"_id": "65c7a6", "eventType": "Site Change", "created_at": at(300), "enteredBy": "Sam", "notes": "left arm", "utcOffset": 60},
        {"_id": "65c7a7", "eventType": "Note", "created_at": at(320), "enteredBy": "Sam", "notes": "felt low after the run", "utcOffset": 60},
        {"_id": "65c7a8", "eventType": "BG Check", "created_at": at(330), "glucose": 5.4, "glucoseType": "Finger", "units": "mmol",
         "enteredBy": "Sam", "utcOffset": 60},
        {"_id": "65c7a9", "eventType": "Carb Correction", "created_at": at(335), "carbs": 15, "enteredBy": "Sam", "utcOffset": 60},
        {"_id": "65c7aa", "eventType": "Exercise", "created_at": at(260), "duration": 40, "notes": "run", "enteredBy": "Sam", "utcOffset": 60},
        {"_id": "65c7ab", "eventType": "Sensor Start", "created_at": at(400), "enteredBy": "Sam", "utcOffset": 60},
        {"_id": "65c7ac", "eventType": "Temporary Override", "created_at": at(410), "duration": 60, "reason": "Running",
         "enteredBy": "loop://iPhone", "utcOffset": 60},
        {"_id": "65c7ad", "eventType": "Correction Bolus", "created_at": at(420), "insulin": -2, "enteredBy": "loop://iPhone", "utcOffset": 60},
    ]
    write("nightscout/nightscout_treatments_loop.json", json.dumps(treatments, indent=2) + "\n")

    status = [
        {"_id": "65c7d1", "device": "loop://iPhone", "created_at": at(10),
         "loop": {"iob": {"iob": 3.85, "timestamp": at(10)}, "cob": {"cob": 41.2}, "name": "Loop"},
         "pump": {"reservoir": 112.4, "battery": {"percent": 75}}, "uploader": {"battery": 88}},
        {"_id": "65c7d2", "device": "openaps://rig", "created_at": at(15),
         "openaps": {"iob": {"iob": 2.1, "basaliob": 0.4}, "suggested": {"COB": 12, "IOB": 2.1, "bg": 145}},
         "uploaderBattery": 64},
    ]
    write("nightscout/nightscout_devicestatus.json", json.dumps(status, indent=2) + "\n")


# --- Tidepool export -----------------------------------------------------------------------------------
def tidepool():
    t0 = dt.datetime(2024, 3, 1, 7, 0, 5, tzinfo=UTC)
    offset = -300  # minutes: US Eastern standard time

    def base(kind, minutes, device="InsOmn-130101234", **fields):
        t = t0 + dt.timedelta(minutes=minutes)
        d = {"id": f"{kind[:3]}{int(minutes * 60):07d}", "type": kind, "time": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
             "timezoneOffset": offset, "deviceTime": (t + dt.timedelta(minutes=offset)).strftime("%Y-%m-%dT%H:%M:%S"),
             "deviceId": device, "uploadId": "upid_aa11bb22cc33", "clockDriftOffset": 0, "conversionOffset": 0}
        d.update(fields)
        return d
    data = [base("upload", -1, deviceManufacturers=["Insulet"], deviceModel="Omnipod DASH", deviceSerialNumber="130101234",
                 deviceTags=["insulin-pump", "bgm"], timeProcessing="utc-bootstrapping")]
    for i in range(24):
        data.append(base("cbg", 5 * i, device="DexG6MobRec_8G1XYZ", units="mmol/L", value=glucose(i + 30) / MMOL))
    data[5]["value"] = 2.2204  # 40 mg/dL with the sensor's Low annotation
    data[5]["annotations"] = [{"code": "bg/out-of-range", "value": "low", "threshold": 40}]
    data += [
        base("smbg", 32, subType="manual", units="mmol/L", value=7.2),
        base("bloodKetone", 33, units="mmol/L", value=0.4),
        base("wizard", 34, units="mmol/L", carbInput=45, insulinOnBoard=0.6, insulinCarbRatio=10, bgInput=7.2,
             recommended={"carb": 4.5, "correction": 0.3, "net": 4.2}, bolus="bol0002040"),
        base("bolus", 34, subType="normal", normal=4.2),
        base("bolus", 60, subType="dual/square", normal=1.5, extended=1.5, duration=3_600_000),
        base("bolus", 90, subType="square", extended=2.0, duration=7_200_000),
        base("basal", 0, deliveryType="scheduled", rate=0.85, duration=3_600_000, scheduleName="Weekday"),
        base("basal", 60, deliveryType="temp", rate=1.2, percent=1.4, duration=1_800_000,
             suppressed={"type": "basal", "deliveryType": "scheduled", "rate": 0.85}),
        base("basal", 90, deliveryType="suspend", duration=900_000),
        base("basal", 105, deliveryType="scheduled", rate=0.85, duration=2_700_000, scheduleName="Weekday"),
        base("food", 150, device="tidepool-mobile", nutrition={"carbohydrate": {"net": 30, "units": "grams"},
                                                               "fat": {"total": 8, "units": "grams"},
                                                               "protein": {"total": 12, "units": "grams"}}, name="yoghurt"),
        base("physicalActivity", 200, device="HealthKit_Watch", name="Morning walk", activityType="walking",
             duration={"value": 35, "units": "minutes"}, reportedIntensity="medium", distance={"value": 2.9, "units": "kilometers"}),
        base("deviceEvent", 240, subType="reservoirChange"),
        base("deviceEvent", 241, subType="prime", primeTarget="cannula", volume=0.5),
        base("deviceEvent", 250, subType="alarm", alarmType="low_insulin"),
        base("pumpSettings", 0, activeSchedule="Weekday", units={"carb": "grams", "bg": "mmol/L"}),
        base("cbg", 300, device="DexG6MobRec_8G1XYZ", units="mmol/L", value="high"),  # a bad value
    ]
    write("tidepool/tidepool_export.json", "[\n" + ",\n".join(json.dumps(d, separators=(",", ":")) for d in data) + "\n]\n")


# --- Apple Health side files -------------------------------------------------------------------------
def apple():
    base = "apple-health/side-files/apple_health_export/"
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 12 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
]>
<HealthData locale="en_GB">
 <ExportDate value="2020-12-04 09:00:00 +0000"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-02-03" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
 <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Sam’s Apple Watch" sourceVersion="7.1" device="&lt;&lt;HKDevice: 0x28304c4b0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch5,4, software:7.1&gt;" unit="ms" creationDate="2020-12-03 08:05:12 +0000" startDate="2020-12-03 08:04:10 +0000" endDate="2020-12-03 08:05:11 +0000" value="48.2">
  <HeartRateVariabilityMetadataList>
   <InstantaneousBeatsPerMinute bpm="62" time="8:04:11.23 AM"/>
   <InstantaneousBeatsPerMinute bpm="64" time="8:04:12.17 AM"/>
   <InstantaneousBeatsPerMinute bpm="61" time="8:04:13.15 AM"/>
   <InstantaneousBeatsPerMinute bpm="63" time="8:04:14.10 AM"/>
  </HeartRateVariabilityMetadataList>
 </Record>
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Sam’s Apple Watch" sourceVersion="7.1" unit="count/min" creationDate="2020-12-03 08:10:00 +0000" startDate="2020-12-03 08:09:58 +0000" endDate="2020-12-03 08:09:58 +0000" value="71"/>
 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="20.5" durationUnit="min" totalDistance="3.1" totalDistanceUnit="km" totalEnergyBurned="210" totalEnergyBurnedUnit="kcal" sourceName="Sam’s Apple Watch" sourceVersion="7.1" creationDate="2020-12-03 08:31:00 +0000" startDate="2020-12-03 08:10:00 +0000" endDate="2020-12-03 08:30:30 +0000">
  <MetadataEntry key="HKTimeZone" value="Europe/London"/>
  <WorkoutRoute sourceName="Sam’s Apple Watch" sourceVersion="7.1" creationDate="2020-12-03 08:31:00 +0000" startDate="2020-12-03 08:10:01 +0000" endDate="2020-12-03 08:30:29 +0000">
   <FileReference path="/workout-routes/route_2020-12-03_8.10am.gpx"/>
  </WorkoutRoute>
 </Workout>
 <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="abc" sourceName="Clinic" fhirVersion="1.0.2" receivedDate="2020-12-01 10:00:00 +0000" resourceFilePath="/clinical-records/Observation-1.json"/>
</HealthData>
"""
    write(base + "export.xml", xml)
    pts = []
    for i in range(12):
        t = dt.datetime(2020, 12, 3, 8, 10, 1, tzinfo=UTC) + dt.timedelta(seconds=100 * i)
        lat, lon = 51.501 + 0.0009 * i, -0.1419 + 0.0011 * math.sin(i / 3)
        pts.append(f'<trkpt lon="{lon:.6f}" lat="{lat:.6f}"><ele>{12 + i * 0.4:.6f}</ele><time>{t.strftime("%Y-%m-%dT%H:%M:%SZ")}</time>'
                   f'<extensions><speed>{2.6 + 0.05 * i:.6f}</speed><course>{10 + i:.6f}</course><hAcc>4.2</hAcc><vAcc>3.1</vAcc></extensions></trkpt>')
    gpx = ('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" '
           'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n'
           '  <metadata>\n    <time>2020-12-04T09:00:00Z</time>\n  </metadata>\n  <trk>\n    <name>Route 2020-12-03 8:10am</name>\n    <trkseg>\n      '
           + "\n      ".join(pts) + "\n    </trkseg>\n  </trk>\n</gpx>\n")
    write(base + "workout-routes/route_2020-12-03_8.10am.gpx", gpx)
    ecg = ["Name,Sam Sample", 'Date of Birth,"Feb 3, 1985"', "Recorded Date,2020-12-03 08:40:12 +0000", "Classification,Sinus Rhythm",
           "Symptoms,", "Software Version,1.90", 'Device,"Watch5,4"', "Sample Rate,512 hertz", "", "Lead,Lead I", "Unit,µV", ""]
    for k in range(512 * 2):  # two seconds keep the sample small (a real recording has 30 s)
        s = (k % 512) / 512
        v = 1100 * math.sin((s - 0.2) / 0.04 * math.pi) if 0.2 < s < 0.24 else 60 * math.sin(s * 2 * math.pi)
        ecg.append(f"{v:.3f}")
    write(base + "electrocardiograms/ecg_2020-12-03.csv", "\n".join(ecg) + "\n")
    write(base + "clinical-records/Observation-1.json", '{"resourceType":"Observation","id":"1","status":"final"}\n')
    zpath = os.path.join(HERE, "apple-health/side-files_export.zip")
    root = os.path.join(HERE, "apple-health/side-files")
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for folder, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, root)
                with open(full, "rb") as f:
                    z.writestr(zipfile.ZipInfo(rel, (2020, 12, 4, 9, 0, 0)), f.read(), compress_type=zipfile.ZIP_DEFLATED)


if __name__ == "__main__":
    overlap()
    clarity_eu()
    tandem()
    nightscout()
    tidepool()
    apple()
