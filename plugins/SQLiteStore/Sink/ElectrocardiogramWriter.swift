import HealthPipeCore

/// Writes ECG recordings: the recording upserted on (subject, source, start), its voltages on
/// (recording, seq). Identical re-imports change nothing and count no new rows.
final class ElectrocardiogramWriter {
    private let db: SQLiteConnection
    private let upsert: Statement
    private let findID: Statement
    private let sample: Statement
    private let symbols: SymbolBytes
    private let imports: ImportLog
    private let devices: DeviceTable

    init(db: SQLiteConnection, symbols: SymbolBytes, imports: ImportLog, devices: DeviceTable) throws {
        self.db = db
        upsert = try db.prepare(UpsertSQL.make(StoreTables.electrocardiograms), persistent: true)
        findID = try db.prepare("SELECT id FROM electrocardiograms WHERE subject = ?1 AND source = ?2 AND start = ?3", persistent: true)
        sample = try db.prepare(UpsertSQL.make(StoreTables.ecgSamples), persistent: true)
        self.symbols = symbols
        self.imports = imports
        self.devices = devices
    }

    func write(_ rows: ArraySlice<Electrocardiogram>) throws {
        for e in rows {
            let slot = try imports.slot(for: e.provenance.file)
            try symbols.bind(e.subject, to: upsert, at: 1)
            try symbols.bind(e.source, to: upsert, at: 2)
            try upsert.bindInt(3, e.start)
            try upsert.bindInt(4, e.end)
            try upsert.bindInt(5, Int64(e.utcOffset))
            try upsert.bindText(6, e.classification)
            try upsert.bindText(7, e.symptoms)
            try upsert.bindDouble(8, e.averageHeartRate)
            try upsert.bindDouble(9, e.samplingHz)
            try upsert.bindText(10, e.lead)
            try upsert.bindInt(11, Int64(e.microvolts.count))
            try upsert.bindText(12, e.metadata)
            try devices.bind(e.device, to: upsert, at: 13)
            try imports.bindOrigin(slot: slot, line: e.provenance.line, to: upsert, at: 14)
            try upsert.run()
            imports.countNewRows(db.changes, slot: slot)
            try symbols.bind(e.subject, to: findID, at: 1)
            try symbols.bind(e.source, to: findID, at: 2)
            try findID.bindInt(3, e.start)
            guard try findID.step() else {
                findID.reset()
                throw SQLiteError(code: 1, message: "ECG row missing after upsert", sql: findID.sql)
            }
            let id = findID.int(0)
            findID.reset()
            for (seq, v) in e.microvolts.enumerated() {
                try sample.bindInt(1, id)
                try sample.bindInt(2, Int64(seq))
                try sample.bindDouble(3, Double(v))
                try sample.run()
                imports.countNewRows(db.changes, slot: slot)
            }
        }
    }
}
