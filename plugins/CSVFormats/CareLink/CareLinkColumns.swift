import HealthPipeCore

/// Where each CareLink column is, found by its header words in any language of `CareLinkHeaderWords`
/// (or by position, `CareLinkLayouts`, when the language is unknown). Read again at every section's header, since
/// Guardian Connect (48 columns) and MiniMed pump exports (54, `Alarm` renamed `Alert`) differ and a
/// file may hold both. Glucose columns carry their own unit (mg/dL or mmol/L).
struct CareLinkColumns {
    typealias Glucose = GlucoseColumn

    var date: Int
    var time: Int
    var bgReading: Glucose?
    var bgSource: Int?
    var calibration: Glucose?
    var sensorGlucose: Glucose?
    var isig: Int?
    var basalRate: Int?
    var tempBasalAmount: Int?
    var tempBasalType: Int?
    var tempBasalDuration: Int?
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
    var rawType: Int?
    var rawValues: Int?
    /// The columns this adapter reads values from: a row with all of them empty carries nothing for it.
    var used: [Int] = []
    /// Cells in the header row.
    var count = 0

    /// Nil unless the row is a header: an `Index` (or, without one, a date) column first, then the
    /// date and time columns, in any language of `CareLinkHeaderWords`.
    init?(header: [String]) {
        let cells = header.map(HeaderText.normalize)
        guard let first = cells.first, Self.opensHeader(first) else { return nil }
        count = cells.count
        func exact(_ role: CareLinkRole) -> Int? { CareLinkHeaderWords.find(role, in: cells) }
        func glucose(_ role: CareLinkRole) -> Glucose? {
            exact(role).map { Glucose(index: $0, unit: cells[$0].contains("mmol") ? .mmol : .mgdl) }
        }
        guard let d = exact(.date), let t = exact(.time) else { return nil }
        date = d
        time = t
        bgReading = glucose(.bgReading)
        bgSource = exact(.bgSource)
        calibration = glucose(.calibration)
        sensorGlucose = glucose(.sensorGlucose)
        isig = exact(.isig)
        basalRate = exact(.basalRate)
        tempBasalAmount = exact(.tempBasalAmount)
        tempBasalType = exact(.tempBasalType)
        tempBasalDuration = exact(.tempBasalDuration)
        bolusType = exact(.bolusType)
        bolusSelected = exact(.bolusSelected)
        bolusDelivered = exact(.bolusDelivered)
        bolusDuration = exact(.bolusDuration)
        bolusNumber = exact(.bolusNumber)
        carbInput = exact(.carbInput)
        eventMarker = exact(.eventMarker)
        alarm = exact(.alarm)
        suspend = exact(.suspend)
        rewind = exact(.rewind)
        rawType = exact(.rawType)
        rawValues = exact(.rawValues)
        used = [bgReading?.index, calibration?.index, sensorGlucose?.index, isig, basalRate, tempBasalAmount, bolusDelivered,
                carbInput, eventMarker, alarm, suspend, rewind].compactMap { $0 }
        // A header with nothing to read (a date and a time only) is not CareLink's.
        if used.isEmpty { return nil }
    }

    /// A header in a language the word table does not know, read by position (`CareLinkLayouts`).
    static func byStructure(header: [String]) -> CareLinkColumns? {
        CareLinkLayouts.english(for: header.map(HeaderText.normalize)).flatMap(CareLinkColumns.init(header:))
    }

    /// Whether a line's date and time cells read as CareLink's date and time.
    static func looksLikeRow(_ line: Substring, delimiter: UInt8, _ columns: CareLinkColumns) -> Bool {
        let cells = line.split(separator: Character(UnicodeScalar(delimiter)), omittingEmptySubsequences: false)
        guard columns.date < cells.count, columns.time < cells.count else { return false }
        var date = Array(cells[columns.date].utf8), time = Array(cells[columns.time].utf8)
        return date.withUnsafeMutableBytes { d in time.withUnsafeMutableBytes { t in
            CareLinkDateTime.localSeconds(date: UnsafeRawBufferPointer(d), time: UnsafeRawBufferPointer(t)) != nil
        } }
    }

    /// A header's first cell: `Index` in any language, or the date column of a layout without one.
    static func opensHeader(_ normalized: String) -> Bool {
        CareLinkHeaderWords.isWord(normalized, of: .index) || CareLinkHeaderWords.isWord(normalized, of: .date)
    }

    /// Whether a row's first cell says it is a header row.
    static func isHeader(_ row: CSVRow) -> Bool {
        opensHeader(HeaderText.normalize(row.string(0)))
    }

    /// Content detection score: CareLink's metadata first line, the "Data Export File" preamble in any
    /// language, a data header whose words the table knows (language found by its words, not assumed),
    /// or a section marker line.
    static func detectScore(_ sniff: FileSniff) -> Int {
        guard let first = sniff.wholeLines.first.map({ HeaderText.normalize(String($0.prefix(160))) }) else { return 0 }
        if first.hasPrefix("last name;first name;patient id") || first.hasPrefix("last name,first name,patient id") { return 90 }
        if CareLinkHeaderWords.preambleMarks.contains(where: first.contains) { return 90 }
        // The product name opens the "Data Export File" untranslated in every language.
        if first.hasPrefix("medtronic diabetes carelink") { return 90 }
        // Only lines that can open a CareLink header or marker are split (a 64 KB XML prefix has a thousand others).
        let openers = Set(CareLinkHeaderWords.table[.index]!.exact.compactMap(\.first)
                          + CareLinkHeaderWords.table[.date]!.exact.compactMap(\.first) + ["-"])
        let lines = Array(sniff.wholeLines)
        for (n, raw) in lines.enumerated() {
            guard let c = raw.unicodeScalars.first(where: { !"\u{FEFF}\"ï»¿ ".unicodeScalars.contains($0) }) else { continue }
            // Other lines only when they have a known layout's width (a header in an unknown language).
            if !openers.contains(Character(String(c).lowercased())) {
                let separators = raw.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: ";") || $1 == UInt8(ascii: ",") ? 1 : 0) }
                guard CareLinkLayouts.englishByWidth[separators + 1] != nil else { continue }
            }
            let line = HeaderText.normalize(String(raw.prefix(4000)))
            // Section markers `-------;Guardian Connect;Pump;<serial>;-------` (the kind word may be translated).
            if line.hasPrefix("-------;"), line.hasSuffix(";-------"), line.split(separator: ";").count >= 4 { return 80 }
            let delimiter = HeaderText.sniffDelimiter(Substring(line))
            let cells = line.split(separator: Character(UnicodeScalar(delimiter)), omittingEmptySubsequences: false).map {
                HeaderText.normalize(String($0))
            }
            guard let columns = CareLinkColumns(header: cells) else {
                // By structure only when the next line is a row of that layout: an index, a date, a time.
                if let columns = byStructure(header: cells), n + 1 < lines.count,
                   Self.looksLikeRow(lines[n + 1], delimiter: delimiter, columns) { return 70 }
                continue
            }
            // A header opened by `Index` is CareLink's; one opened by the date needs two of its value columns.
            if CareLinkHeaderWords.isWord(cells[0], of: .index) { return 85 }
            if columns.used.count >= 2 { return 75 }
        }
        return 0
    }
}
