import HealthPipeCore

/// Writes measurements on their natural key (subject, metric, source, start, end): the value is not
/// part of it, so a corrected value replaces the row it corrects (the later write wins) and the
/// imports log counts it as changed. What says where a reading came from (import, line, device,
/// metadata) follows the write that last changed it: the same reading in two exports of one sensor
/// (Clarity and Nightscout name other uploaders) is not a change. The hot path binds by index from cached symbol bytes and
/// allocates nothing per row; rows go `groupSize` to a statement when they share a provenance file
/// (so one changes() count belongs to one import), the rest one at a time.
///
/// Each group is first offered as plain inserts (INSERT … DO NOTHING): when every row is new, its
/// days stay eligible for derived rows written from the stream (`PendingDays`). A group that meets
/// stored rows is written again as an upsert — changing only rows whose columns differ — and its
/// days are contested. After a group of stored rows only, the writer upserts directly (a re-import
/// meets stored rows all along), probing with plain inserts now and then to notice new data again.
final class MeasurementWriter {
    /// Bound in this order (`bind`): the table's columns.
    static let columns = StoreTables.measurements.writtenColumns
    static let groupSize = 64
    /// While upserting after a group of stored rows only, every this many groups is probed with plain inserts.
    static let probeEvery = 8

    static func upsertSQL(rows: Int) -> String { UpsertSQL.make(StoreTables.measurements, rows: rows) }

    static func insertSQL(rows: Int) -> String { UpsertSQL.insertIgnoringConflicts(StoreTables.measurements, rows: rows) }

    private let db: SQLiteConnection
    private let insertOne: Statement, insertGroup: Statement
    private let upsertOne: Statement, upsertGroup: Statement
    private let symbols: SymbolBytes
    private let imports: ImportLog
    private let devices: DeviceTable
    private let pending: PendingDays
    private var upsertingSince: Int?
    private var lastSubject: Symbol?

    init(db: SQLiteConnection, symbols: SymbolBytes, imports: ImportLog, devices: DeviceTable, pending: PendingDays) throws {
        self.db = db
        insertOne = try db.prepare(Self.insertSQL(rows: 1), persistent: true)
        insertGroup = try db.prepare(Self.insertSQL(rows: Self.groupSize), persistent: true)
        upsertOne = try db.prepare(Self.upsertSQL(rows: 1), persistent: true)
        upsertGroup = try db.prepare(Self.upsertSQL(rows: Self.groupSize), persistent: true)
        self.symbols = symbols
        self.imports = imports
        self.devices = devices
        self.pending = pending
    }

    func write(_ rows: ArraySlice<Measurement>) throws {
        // A row followed at once by another with its natural key (two LibreView scans in one minute)
        // is superseded: writing it would only be undone, and a re-import would count both as changes.
        if let superseded = Self.supersededRows(rows) { return try write(superseded[...]) }
        var i = rows.startIndex
        var groups = 0
        while i < rows.endIndex {
            let file = rows[i].provenance.file
            let slot = try imports.slot(for: file)
            let importID = slot >= 0 ? imports.id(ofSlot: slot) : nil
            let n = rows.endIndex - i >= Self.groupSize && Self.sameFile(rows, from: i, file: file) ? Self.groupSize : 1
            let chunk = rows[i..<(i + n)]
            for m in chunk where m.subject != lastSubject {
                try pending.prepare(m.subject)
                lastSubject = m.subject
            }
            let (insert, upsert) = n == 1 ? (insertOne, upsertOne) : (insertGroup, upsertGroup)
            var changed = 0, contested = true
            groups += 1
            if upsertingSince == nil || (groups - upsertingSince!) % Self.probeEvery == 0 {
                try bind(chunk, importID: importID, to: insert)
                try insert.run()
                changed = db.changes
                contested = changed < n
                // Only a group that met nothing but stored rows looks like a re-import.
                upsertingSince = changed == 0 ? groups : nil
            }
            if contested {
                try bind(chunk, importID: importID, to: upsert)
                try upsert.run()
                changed += db.changes
            }
            imports.countNewRows(changed, slot: slot)
            for m in chunk { try pending.note(subject: m.subject, day: m.localDay, changed: changed > 0, contested: contested) }
            i += n
        }
    }

    /// `rows` without those whose very next row has the same natural key and file; nil when none.
    static func supersededRows(_ rows: ArraySlice<Measurement>) -> [Measurement]? {
        var i = rows.startIndex
        while i + 1 < rows.endIndex, !Self.sameKey(rows[i], rows[i + 1]) { i += 1 }
        guard i + 1 < rows.endIndex else { return nil }
        var out = Array(rows[rows.startIndex..<i])
        for j in i..<rows.endIndex where j + 1 == rows.endIndex || !Self.sameKey(rows[j], rows[j + 1]) { out.append(rows[j]) }
        return out
    }

    @inline(__always)
    static func sameKey(_ a: Measurement, _ b: Measurement) -> Bool {
        a.start == b.start && a.end == b.end && a.source == b.source && a.metric == b.metric && a.subject == b.subject
            && a.provenance.file == b.provenance.file
    }

    @inline(__always)
    private static func sameFile(_ rows: ArraySlice<Measurement>, from start: Int, file: Symbol) -> Bool {
        for j in (start + 1)..<(start + groupSize) where rows[j].provenance.file != file { return false }
        return true
    }

    @inline(__always)
    private func bind(_ chunk: ArraySlice<Measurement>, importID: Int64?, to s: Statement) throws {
        var base: Int32 = 0
        for m in chunk {
            try bind(m, importID: importID, to: s, base: base)
            base += Int32(Self.columns.count)
        }
    }

    @inline(__always)
    private func bind(_ m: Measurement, importID: Int64?, to s: Statement, base: Int32) throws {
        try symbols.bind(m.subject, to: s, at: base + 1)
        try symbols.bind(m.metric, to: s, at: base + 2)
        try symbols.bind(m.source, to: s, at: base + 3)
        try s.bindInt(base + 4, m.start)
        try s.bindInt(base + 5, m.end)
        try s.bindDouble(base + 6, m.value)
        try s.bindInt(base + 7, Int64(m.utcOffset))
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
