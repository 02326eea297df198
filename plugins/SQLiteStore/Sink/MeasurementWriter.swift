import HealthPipeCore

/// Upserts measurements on their natural key (subject, metric, source, start, end, value): the
/// value is in the key, as for every CGM and Apple export, because one device can write two
/// different readings at the same instant (a Libre scan and a historic reading in one minute). The hot path: binds by index from cached symbol
/// bytes and allocates nothing per row. Rows go `groupSize` at a time through a multi-row
/// statement when they share a provenance file (so one changes() count belongs to one import),
/// the rest one at a time.
final class MeasurementWriter {
    static let columns = ["subject", "metric", "source", "start", "end", "utc_offset", "value", "unit", "flags", "band",
                          "import_id", "line", "metadata", "device_id"]
    static let groupSize = 64

    static func sql(rows: Int) -> String {
        UpsertSQL.make(table: "measurements", columns: columns, key: ["subject", "metric", "source", "start", "end", "value"],
                       update: ["unit", "flags", "band", "utc_offset", "import_id", "line", "metadata", "device_id"],
                       changedWhen: ["unit", "flags", "band", "utc_offset", "metadata", "device_id"], rows: rows)
    }

    private let db: SQLiteConnection
    private let single: Statement
    private let group: Statement
    private let symbols: SymbolBytes
    private let imports: ImportLog
    private let devices: DeviceTable

    init(db: SQLiteConnection, symbols: SymbolBytes, imports: ImportLog, devices: DeviceTable) throws {
        self.db = db
        self.single = try db.prepare(Self.sql(rows: 1), persistent: true)
        self.group = try db.prepare(Self.sql(rows: Self.groupSize), persistent: true)
        self.symbols = symbols
        self.imports = imports
        self.devices = devices
    }

    func write(_ rows: ArraySlice<Measurement>) throws {
        var i = rows.startIndex
        while i < rows.endIndex {
            let file = rows[i].provenance.file
            let slot = try imports.slot(for: file)
            let importID = slot >= 0 ? imports.id(ofSlot: slot) : nil
            if rows.endIndex - i >= Self.groupSize, Self.sameFile(rows, from: i, file: file) {
                for r in 0..<Self.groupSize {
                    try bind(rows[i + r], importID: importID, to: group, base: Int32(r * Self.columns.count))
                }
                try group.run()
                i += Self.groupSize
            } else {
                try bind(rows[i], importID: importID, to: single, base: 0)
                try single.run()
                i += 1
            }
            imports.countNewRows(db.changes, slot: slot)
        }
    }

    @inline(__always)
    private static func sameFile(_ rows: ArraySlice<Measurement>, from start: Int, file: Symbol) -> Bool {
        for j in (start + 1)..<(start + groupSize) where rows[j].provenance.file != file { return false }
        return true
    }

    @inline(__always)
    private func bind(_ m: Measurement, importID: Int64?, to s: Statement, base: Int32) throws {
        try symbols.bind(m.subject, to: s, at: base + 1)
        try symbols.bind(m.metric, to: s, at: base + 2)
        try symbols.bind(m.source, to: s, at: base + 3)
        try s.bindInt(base + 4, m.start)
        try s.bindInt(base + 5, m.end)
        try s.bindInt(base + 6, Int64(m.utcOffset))
        try s.bindDouble(base + 7, m.value)
        try symbols.bind(m.unit, to: s, at: base + 8)
        try s.bindInt(base + 9, Int64(m.flags.rawValue))
        try symbols.bindOrNull(m.band, to: s, at: base + 10)
        if let importID {
            try s.bindInt(base + 11, importID)
            try s.bindInt(base + 12, m.provenance.line)
        } else {
            try s.bindNull(base + 11)
            try s.bindNull(base + 12)
        }
        try s.bindText(base + 13, m.metadata)
        try devices.bind(m.device, to: s, at: base + 14)
    }
}
