import HealthPipeCore

/// Where each CareLink column is, found by header name. Read again at every section's header, since
/// Guardian Connect (48 columns) and MiniMed pump exports (54, `Alarm` renamed `Alert`) differ and a
/// file may hold both. Glucose columns carry their own unit (mg/dL or mmol/L).
struct CareLinkColumns {
    struct Glucose {
        var index: Int
        var unit: GlucoseUnit
    }

    var date: Int
    var time: Int
    var bgReading: Glucose?
    var calibration: Glucose?
    var sensorGlucose: Glucose?
    var isig: Int?
    var basalRate: Int?
    var bolusType: Int?
    var bolusSelected: Int?
    var bolusDelivered: Int?
    var bolusDuration: Int?
    var bolusNumber: Int?
    var carbInput: Int?
    var eventMarker: Int?
    var alarm: Int?
    var suspend: Int?
    var rewind: Int?
    /// The columns this adapter reads values from: a row with all of them empty carries nothing for it.
    var used: [Int] = []
    /// Cells in the header row.
    var count = 0

    /// Nil unless the row is a header: `Index`, then the date and time columns.
    init?(header: [String]) {
        let cells = header.map(HeaderText.normalize)
        guard cells.first == "index" else { return nil }
        count = cells.count
        func exact(_ names: [String]) -> Int? { cells.firstIndex { names.contains($0) } }
        func glucose(_ prefixes: [String]) -> Glucose? {
            cells.firstIndex { c in prefixes.contains { c.hasPrefix($0) } }
                .map { Glucose(index: $0, unit: cells[$0].contains("mmol") ? .mmol : .mgdl) }
        }
        guard let d = exact(["date", "datum"]), let t = exact(["time", "tijd"]) else { return nil }
        date = d
        time = t
        bgReading = glucose(["bg reading (", "bg-meetwaarde ("])
        calibration = glucose(["sensor calibration bg ("])
        sensorGlucose = glucose(["sensor glucose ("])
        isig = exact(["isig value"])
        basalRate = exact(["basal rate (u/h)"])
        bolusType = exact(["bolus type"])
        bolusSelected = exact(["bolus volume selected (u)"])
        bolusDelivered = exact(["bolus volume delivered (u)"])
        bolusDuration = exact(["bolus duration (h:mm:ss)"])
        bolusNumber = exact(["bolus number"])
        carbInput = exact(["bwz carb input (grams)"])
        eventMarker = exact(["event marker"])
        alarm = exact(["alarm", "alert"])
        suspend = exact(["suspend"])
        rewind = exact(["rewind"])
        used = [bgReading?.index, calibration?.index, sensorGlucose?.index, isig, basalRate, bolusDelivered,
                carbInput, eventMarker, alarm, suspend, rewind].compactMap { $0 }
    }

    /// Whether a row's first cell says it is a header row.
    static func isHeader(_ row: CSVRow) -> Bool {
        HeaderText.normalize(row.string(0)) == "index"
    }

    /// Content detection score: CareLink's metadata first line, its data header, or a section marker line.
    static func detectScore(_ sniff: FileSniff) -> Int {
        // Only lines that can be a CareLink marker are normalised (a 64 KB XML prefix has a thousand others).
        let lines = sniff.wholeLines.filter { l in
            guard let c = l.unicodeScalars.first(where: { $0 != "\u{FEFF}" && $0 != "\"" && $0 != "ï" && $0 != "»" && $0 != "¿" }) else { return false }
            return "lLiI-".unicodeScalars.contains(c)
        }.map { HeaderText.normalize(String($0.prefix(120))) }
        guard let first = sniff.wholeLines.first.map({ HeaderText.normalize(String($0.prefix(120))) }) else { return 0 }
        if first.hasPrefix("last name;first name;patient id") || first.hasPrefix("last name,first name,patient id") { return 90 }
        for line in lines {
            if ["index;date;time;", "index,date,time,", "index;datum;tijd;", "index,datum,tijd,"].contains(where: line.hasPrefix) {
                return 85
            }
            if line.hasPrefix("-------;"), line.contains(";pump;") || line.contains(";sensor;") { return 80 }
        }
        return 0
    }
}
