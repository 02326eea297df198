import HealthPipeCore

/// Records stored as a row of their own with many rows under it — a workout route and its points, an
/// ECG recording and its voltages — waiting for the next transaction. The parent is upserted on its
/// natural key and keeps its store-local id; its rows are upserted on (that id, seq). In the stage a
/// child row names its parent by the parent's arrival order (`hp_order`), which the move turns into
/// the stored id. A parent staged twice in one transaction (one export imported twice in one run) is
/// moved once, as it came last, with its own rows. Identical re-imports change nothing.
struct StagedSeries {
    let parent: PGTable
    let child: PGTable
    var parents = CopyBuffer()
    var children = CopyBuffer()

    init(_ parent: PGTable, _ child: PGTable) {
        self.parent = parent
        self.child = child
    }

    var rows: Int { parents.rows + children.rows }
    var isEmpty: Bool { parents.isEmpty }

    /// Ends a parent row (its columns written to `parents`); its number, which its child rows start with.
    mutating func endParent() -> Int64 {
        let order = Int64(parents.rows)
        parents.int(order)
        parents.endRow()
        return order
    }

    mutating func reset() {
        parents.reset()
        children.reset()
    }

    /// Moves the staged rows inside the caller's transaction; rows inserted or changed by import id
    /// (a child row counts for the import of its parent).
    func flush(_ db: PGConnection) throws -> [Int64?: Int64] {
        guard !isEmpty else { return [:] }
        var changed: [Int64?: Int64] = [:]
        try db.copy(into: parent.stage, columns: parent.copyColumns, rows: parents.bytes)
        if !children.isEmpty { try db.copy(into: child.stage, columns: child.columns, rows: children.bytes) }
        let moved = try db.query(parent.upsert(lastOfEachKey: true))
        for r in 0..<moved.count { changed[moved.text(r, 0).flatMap { Int64($0) }, default: 0] += moved.int(r, 2) }
        if !children.isEmpty {
            let rows = try db.query(moveChildren)
            for r in 0..<rows.count { changed[rows.text(r, 0).flatMap { Int64($0) }, default: 0] += rows.int(r, 1) }
        }
        try db.execute("TRUNCATE \(parent.stage), \(child.stage)")
        return changed
    }

    /// The children of each key's last staged parent, under the parent's stored id, upserted; counted
    /// by the parent's import.
    private var moveChildren: String {
        let q = PGTable.q, link = PGConnection.quote(child.key[0])
        let key = q(parent.key)
        let values = child.columns.dropFirst().map { "c.\(PGConnection.quote($0))" }.joined(separator: ", ")
        let matches = parent.key.map { "t.\(PGConnection.quote($0)) = p.\(PGConnection.quote($0))" }.joined(separator: " AND ")
        let differs = "(" + child.changedWhen.map { "\(child.name).\(PGConnection.quote($0))" }.joined(separator: ", ")
            + ") IS DISTINCT FROM (" + child.changedWhen.map { "excluded.\(PGConnection.quote($0))" }.joined(separator: ", ") + ")"
        let set = child.update.map { "\(PGConnection.quote($0)) = excluded.\(PGConnection.quote($0))" }.joined(separator: ", ")
        return """
            WITH p AS (SELECT DISTINCT ON (\(key)) \(key), hp_order, import_id FROM \(parent.stage) ORDER BY \(key), hp_order DESC),
            src AS MATERIALIZED (
                SELECT t.id AS \(link), \(values), p.import_id AS hp_import
                  FROM \(child.stage) c JOIN p ON p.hp_order = c.\(link) JOIN \(parent.name) t ON \(matches)),
            w AS (INSERT INTO \(child.name) (\(q(child.columns))) SELECT \(q(child.columns)) FROM src
                  ON CONFLICT (\(q(child.key))) DO UPDATE SET \(set) WHERE \(differs)
                  RETURNING \(q(child.key)))
            SELECT src.hp_import, count(*) FROM w JOIN src USING (\(q(child.key))) GROUP BY 1
            """
    }
}

/// What an Apple export's side files and a motion stream bring: routes with their points, ECGs with
/// their voltages, motion sessions (the last of a key wins; like profiles, they count no new rows, as
/// in SQLite).
struct RecordingStages {
    var routes = StagedSeries(.workoutRoutes, .routePoints)
    var electrocardiograms = StagedSeries(.electrocardiograms, .ecgSamples)
    var motionSessions = StagedTable(.motionSessions)

    var rows: Int { routes.rows + electrocardiograms.rows + motionSessions.buffer.rows }

    mutating func reset() {
        routes.reset()
        electrocardiograms.reset()
        motionSessions.reset()
    }

    /// Moves everything staged; rows inserted or changed by import id.
    func flush(_ db: PGConnection) throws -> [Int64?: Int64] {
        var changed = try routes.flush(db)
        changed.merge(try electrocardiograms.flush(db), uniquingKeysWith: +)
        var sessions = motionSessions
        sessions.duplicates = true
        try sessions.flush(db)
        return changed
    }
}

/// The rows of routes, ECGs and motion sessions, in their tables' column order.
extension CopyBuffer {
    mutating func route(_ r: WorkoutRoute, importID: Int64?, deviceID: Int64?) {
        text(r.subject); text(r.source); int(r.start); text(r.name); int(r.end); int(Int64(r.utcOffset)); int(r.workoutStart)
        int(Int64(r.points.count)); int(deviceID); int(importID); int(importID == nil ? nil : r.provenance.line)
    }

    mutating func routePoint(_ p: WorkoutRoute.Point, route: Int64, seq: Int) {
        int(route); int(Int64(seq)); int(p.time); double(p.latitude); double(p.longitude); double(p.elevation); double(p.speed)
        double(p.course); double(p.horizontalAccuracy); double(p.verticalAccuracy)
        endRow()
    }

    mutating func electrocardiogram(_ e: Electrocardiogram, importID: Int64?, deviceID: Int64?) {
        text(e.subject); text(e.source); int(e.start); int(e.end); int(Int64(e.utcOffset)); text(e.classification); text(e.symptoms)
        double(e.averageHeartRate); double(e.samplingHz); text(e.lead); int(Int64(e.microvolts.count)); text(e.metadata); int(deviceID)
        int(importID); int(importID == nil ? nil : e.provenance.line)
    }

    mutating func ecgSample(_ microvolts: Float, ecg: Int64, seq: Int) {
        int(ecg); int(Int64(seq)); double(Double(microvolts))
        endRow()
    }

    mutating func motionSession(_ m: MotionSession, importID: Int64?) {
        let local = m.localStart
        text(m.subject); text(m.device); int(m.start); text(m.source); int(m.end); int(m.startSeconds); int(m.endSeconds)
        int(Int64(m.utcOffset)); double(m.durationSeconds); double(m.activeSeconds); double(m.average); double(m.accomplishment)
        int(m.samples); text(m.endReason.rawValue); int(Int64(local.year)); int(Int64(local.month)); int(Int64(local.day))
        text(local.time); int(Int64(local.dayOfWeek)); int(Int64(local.daysInMonth)); int(m.provenance.line > 0 ? m.provenance.line : nil)
        int(importID)
    }
}
