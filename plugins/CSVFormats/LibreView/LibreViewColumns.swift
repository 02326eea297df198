import HealthPipeCore

/// Where each LibreView column is, found by header name, so the Libre 3 and Libre Pro spellings,
/// the older `Meter Timestamp` / `Historic Glucose(mg/dL)` desktop exports, mmol/L files with their
/// trailing ketone columns and the Spanish header all work. Glucose columns carry their own unit.
struct LibreViewColumns {
    struct Glucose {
        var index: Int
        var unit: GlucoseUnit
    }

    /// How many rows the header may be preceded by (real files have a 1- or 2-line preamble).
    static let headerSearchRows = 10

    var count: Int
    var device: Int?
    var timestamp: Int
    var recordType: Int
    var historic: Glucose?
    var scan: Glucose?
    var strip: Glucose?
    var rapid: Int?
    var rapidText: Int?
    var longActing: Int?
    var longText: Int?
    var foodText: Int?
    var carbsGrams: Int?
    var carbsServings: Int?
    var notes: Int?
    var mealInsulin: Int?
    var correctionInsulin: Int?
    var userChangeInsulin: Int?
    var ketones: [Int] = []
    /// Every column that holds a reading or an entry (not device, serial, timestamp, type): a row
    /// with all of them empty carries nothing.
    var valueColumns: [Int] = []

    /// Nil unless the row names both a timestamp and a record type column.
    init?(header: [String]) {
        let cells = header.map(HeaderText.normalize)
        func exact(_ names: [String]) -> Int? { cells.firstIndex { names.contains($0) } }
        func prefix(_ names: [String]) -> Int? { cells.firstIndex { c in names.contains { c.hasPrefix($0) } } }
        func glucose(_ names: [String]) -> Glucose? {
            prefix(names).map { Glucose(index: $0, unit: cells[$0].contains("mmol") ? .mmol : .mgdl) }
        }
        guard let ts = exact(["device timestamp", "meter timestamp", "sello de tiempo del dispositivo"]),
              let type = exact(["record type", "tipo de registro"]) else { return nil }
        count = cells.count
        timestamp = ts
        recordType = type
        device = exact(["device", "dispositivo"])
        historic = glucose(["historic glucose", "historial de glucosa"])
        scan = glucose(["scan glucose"])
        strip = glucose(["strip glucose"])
        rapid = exact(["rapid-acting insulin (units)"])
        rapidText = exact(["non-numeric rapid-acting insulin"])
        longActing = exact(["long-acting insulin value (units)", "long-acting insulin (units)"])
        longText = exact(["non-numeric long-acting insulin"])
        foodText = exact(["non-numeric food"])
        carbsGrams = exact(["carbohydrates (grams)"])
        carbsServings = exact(["carbohydrates (servings)"])
        notes = exact(["notes"])
        mealInsulin = exact(["meal insulin (units)"])
        correctionInsulin = exact(["correction insulin (units)"])
        userChangeInsulin = exact(["user change insulin (units)"])
        ketones = cells.indices.filter { cells[$0].contains("ketone") }
        let serial = exact(["serial number", "numero de serie", "número de serie"])
        let identity: Set<Int?> = [device, serial, ts, type]
        valueColumns = cells.indices.filter { !identity.contains($0) }
    }

    /// Content detection score: a LibreView header in the first lines, or failing that a known preamble.
    static func detectScore(_ sniff: FileSniff) -> Int {
        if headerDelimiter(sniff) != nil { return 95 }
        guard let first = sniff.lines(1).first else { return 0 }
        let start = HeaderText.normalize(String(first.prefix(80)))
        return preambles.contains { start.hasPrefix($0) } ? 80 : 0
    }

    /// The delimiter of the header line among a file's first lines; nil when none is a LibreView header.
    static func headerDelimiter(_ sniff: FileSniff) -> UInt8? {
        for line in sniff.lines(headerSearchRows) {
            let d = HeaderText.sniffDelimiter(line)
            let cells = line.split(separator: Character(Unicode.Scalar(d)), omittingEmptySubsequences: false)
            if LibreViewColumns(header: cells.map(String.init)) != nil { return d }
        }
        return nil
    }

    /// First-line preambles (lower-cased): Libre 3, US "Patient report", Russian.
    static let preambles = ["glucose data,generated on", "patient report,generated on", "данные о глюкозе,создано"]
}
