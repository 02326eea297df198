import HealthPipeCore

/// The stored rows behind `healthpipe serve`'s Nightscout API, newest first as Nightscout returns
/// them: readings of one metric (each source read backwards along its key, then merged, so a
/// `count=1` costs a seek per source, never a scan) and events (along `events_by_time`). Rows come
/// back as stored — metadata and the device's attributes as JSON text — for the server to shape.
public final class NightscoutRows {
    private let chart: ChartQueries
    /// The read-only connection, for the other reads of this API (`StoredFoods`).
    var chartDB: SQLiteConnection { chart.db }

    /// Opens an existing database read-only (`ChartQueries`' checks: a missing file is an error).
    public init(path: String) throws { chart = try ChartQueries(path: path) }

    public struct Row: Sendable {
        /// The metric of a reading, the kind of an event.
        public var kind: String
        public var subtype = ""
        public var source: String
        public var start: Int64, end: Int64
        public var utcOffset: Int32
        public var value: Double?
        public var carbs: Double?, protein: Double?, fat: Double?, insulin: Double?
        public var note: String?
        public var metadata: String?
        /// The device's `attributes` (readings only).
        public var device: String?
        /// An `events` row (else a reading of `measurements`): where a deletion finds it (`RowDeletion`).
        public var isEvent = false

        public init(kind: String, subtype: String = "", source: String, start: Int64, end: Int64, utcOffset: Int32, value: Double? = nil,
                    carbs: Double? = nil, protein: Double? = nil, fat: Double? = nil, insulin: Double? = nil, note: String? = nil,
                    metadata: String? = nil, device: String? = nil, isEvent: Bool = false) {
            (self.kind, self.subtype, self.source, self.start, self.end, self.utcOffset) = (kind, subtype, source, start, end, utcOffset)
            (self.value, self.carbs, self.protein, self.fat, self.insulin) = (value, carbs, protein, fat, insulin)
            (self.note, self.metadata, self.device, self.isEvent) = (note, metadata, device, isEvent)
        }

        /// What a deletion of this row names (`RowDeletion`): an event's key, or a reading's.
        public var deletionTarget: RowDeletion.Target {
            RowDeletion.Target(table: isEvent ? .events : .measurements, name: kind, subtype: isEvent ? subtype : "", source: source,
                               start: start, end: end)
        }
    }

    /// Which readings: those a Nightscout treatment left (their metadata holds its `eventType`: a BG
    /// Check, a temp basal) or the others (entries, device status).
    public enum Origin: Sendable { case treatment, notTreatment }

    /// Readings of `metric` (of one `source`, or all) with `fromUTC <= start < toUTC`, newest first
    /// (oldest first with `oldestFirst`: API v3's `sort=date`), at most `limit`.
    public func readings(subject: String, metric: String, fromUTC: Int64, toUTC: Int64, limit: Int, origin: Origin,
                         source only: String? = nil, oldestFirst: Bool = false) throws -> [Row] {
        // Before v2 no row has metadata (so none is a treatment's); before v6 no row names a device.
        let hasMetadata = chart.schemaVersion >= SchemaV2.migration.version, hasDevices = chart.schemaVersion >= SchemaV6.migration.version
        let filter = !hasMetadata ? (origin == .treatment ? "0" : "1")
            : origin == .treatment ? "instr(m.metadata, '\"eventType\"') > 0" : "(m.metadata IS NULL OR instr(m.metadata, '\"eventType\"') = 0)"
        let s = try chart.db.prepare("""
            SELECT m.start, m."end", m.utc_offset, m.value, \(hasMetadata ? "m.metadata" : "NULL"), \(hasDevices ? "d.attributes" : "NULL")
              FROM measurements m \(hasDevices ? "LEFT JOIN devices d ON d.id = m.device_id" : "")
            WHERE m.subject = ?1 AND m.metric = ?2 AND m.source = ?3 AND m.start >= ?4 AND m.start < ?5
              AND (m.flags & \(RecordFlags.interpolated.rawValue)) = 0 AND \(filter)
            ORDER BY m.start \(oldestFirst ? "ASC" : "DESC") LIMIT ?6
            """)
        var out: [Row] = []
        for source in try only.map({ [$0] }) ?? chart.readingSources(subject: subject, metric: metric) {
            try s.bindSeries(subject: subject, metric: metric, source: source, fromUTC: fromUTC, toUTC: toUTC)
            try s.bindInt(6, Int64(limit))
            while try s.step() {
                out.append(Row(kind: metric, source: source, start: s.int(0), end: s.int(1), utcOffset: Int32(truncatingIfNeeded: s.int(2)),
                               value: s.double(3), metadata: s.text(4), device: s.text(5)))
            }
        }
        return Array(out.sorted { oldestFirst ? $0.start < $1.start : $0.start > $1.start }.prefix(limit))
    }

    /// Events with `fromUTC <= start < toUTC`, newest first (or oldest first), at most `limit`.
    public func events(subject: String, fromUTC: Int64, toUTC: Int64, limit: Int, oldestFirst: Bool = false) throws -> [Row] {
        let s = try chart.db.prepare("""
            SELECT kind, subtype, source, start, "end", utc_offset, carbs_g, protein_g, fat_g, insulin_u, note,
                   \(chart.schemaVersion >= SchemaV2.migration.version ? "metadata" : "NULL") FROM events
            WHERE subject = ?1 AND start >= ?2 AND start < ?3 ORDER BY start \(oldestFirst ? "ASC" : "DESC") LIMIT ?4
            """)
        try s.bindText(1, subject)
        try s.bindInt(2, fromUTC)
        try s.bindInt(3, toUTC)
        try s.bindInt(4, Int64(limit))
        func optional(_ c: Int32) -> Double? { s.isNull(c) ? nil : s.double(c) }
        var out: [Row] = []
        while try s.step() {
            out.append(Row(kind: s.text(0) ?? "", subtype: s.text(1) ?? "", source: s.text(2) ?? "", start: s.int(3), end: s.int(4),
                           utcOffset: Int32(truncatingIfNeeded: s.int(5)), carbs: optional(6), protein: optional(7), fat: optional(8),
                           insulin: optional(9), note: s.text(10), metadata: s.text(11), isEvent: true))
        }
        return out
    }

    /// The subject's profile as a Nightscout profile left it (`attributes`), nil without one.
    public func profile(subject: String) throws -> String? {
        guard chart.schemaVersion >= SchemaV2.migration.version else { return nil }  // profiles came with v2
        let s = try chart.db.prepare("SELECT attributes FROM subject_profiles WHERE subject = ?1 AND source = 'nightscout'")
        try s.bindText(1, subject)
        return try s.step() ? s.text(0) : nil
    }

    /// The rows of `subject` deleted by hand (`RowDeletion`) after `since` (UTC seconds), as they
    /// were, each with when it was deleted, oldest deletion first: what API v3's history reports as
    /// no longer valid. None in a database from before deletions were kept.
    public func deleted(subject: String, after since: Int64) throws -> [(row: Row, deletedAt: Int64)] {
        let table = try chart.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'deleted_rows'")
        guard try table.step() else { return [] }
        let s = try chart.db.prepare("""
            SELECT row_table, name, subtype, source, start, "end", amount, utc_offset, value, metadata, deleted_at FROM deleted_rows
             WHERE subject = ?1 AND deleted_at > ?2 ORDER BY deleted_at, start
            """)
        try s.bindText(1, subject)
        try s.bindInt(2, since)
        var out: [(row: Row, deletedAt: Int64)] = []
        while try s.step() {
            let isEvent = s.text(0) == RowDeletion.Table.events.rawValue, kind = s.text(1) ?? "", amount = s.double(6)
            out.append((Row(kind: kind, subtype: s.text(2) ?? "", source: s.text(3) ?? "", start: s.int(4), end: s.int(5),
                            utcOffset: Int32(truncatingIfNeeded: s.int(7)), value: s.isNull(8) ? nil : s.double(8),
                            carbs: isEvent && kind == Event.Kind.meal.rawValue ? amount : nil,
                            insulin: isEvent && kind == Event.Kind.insulin.rawValue ? amount : nil,
                            metadata: s.text(9), isEvent: isEvent), s.int(10)))
        }
        return out
    }
}
