import HealthPipeCore

/// Writes workout routes: the route row upserted on (subject, source, start, name), its points on
/// (route, seq). Identical re-imports change nothing and count no new rows.
final class RouteWriter {
    private let db: SQLiteConnection
    private let upsert: Statement
    private let findID: Statement
    private let point: Statement
    private let symbols: SymbolBytes
    private let imports: ImportLog
    private let devices: DeviceTable

    init(db: SQLiteConnection, symbols: SymbolBytes, imports: ImportLog, devices: DeviceTable) throws {
        self.db = db
        upsert = try db.prepare(UpsertSQL.make(StoreTables.workoutRoutes), persistent: true)
        findID = try db.prepare("SELECT id FROM workout_routes WHERE subject = ?1 AND source = ?2 AND start = ?3 AND name = ?4",
                                persistent: true)
        point = try db.prepare(UpsertSQL.make(StoreTables.routePoints), persistent: true)
        self.symbols = symbols
        self.imports = imports
        self.devices = devices
    }

    /// Rows written: the route and each of its points.
    func write(_ rows: ArraySlice<WorkoutRoute>) throws {
        for r in rows {
            let slot = try imports.slot(for: r.provenance.file)
            try symbols.bind(r.subject, to: upsert, at: 1)
            try symbols.bind(r.source, to: upsert, at: 2)
            try upsert.bindInt(3, r.start)
            try upsert.bindText(4, r.name)
            try upsert.bindInt(5, r.end)
            try upsert.bindInt(6, Int64(r.utcOffset))
            if let w = r.workoutStart { try upsert.bindInt(7, w) } else { try upsert.bindNull(7) }
            try upsert.bindInt(8, Int64(r.points.count))
            try devices.bind(r.device, to: upsert, at: 9)
            try imports.bindOrigin(slot: slot, line: r.provenance.line, to: upsert, at: 10)
            try upsert.run()
            imports.countNewRows(db.changes, slot: slot)
            let id = try routeID(r)
            for (seq, p) in r.points.enumerated() {
                try point.bindInt(1, id)
                try point.bindInt(2, Int64(seq))
                try point.bindInt(3, p.time)
                try point.bindDouble(4, p.latitude)
                try point.bindDouble(5, p.longitude)
                try point.bindDouble(6, p.elevation)
                try point.bindDouble(7, p.speed)
                try point.bindDouble(8, p.course)
                try point.bindDouble(9, p.horizontalAccuracy)
                try point.bindDouble(10, p.verticalAccuracy)
                try point.run()
                imports.countNewRows(db.changes, slot: slot)
            }
        }
    }

    private func routeID(_ r: WorkoutRoute) throws -> Int64 {
        try symbols.bind(r.subject, to: findID, at: 1)
        try symbols.bind(r.source, to: findID, at: 2)
        try findID.bindInt(3, r.start)
        try findID.bindText(4, r.name)
        defer { findID.reset() }
        guard try findID.step() else { throw SQLiteError(code: 1, message: "route row missing after upsert", sql: findID.sql) }
        return findID.int(0)
    }
}
