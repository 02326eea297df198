import HealthPipeCore

/// Row ids of the `devices` table by device symbol: each device is looked up (or inserted) once
/// per run, then every record binds a cached integer. The attributes go through `json()` so a
/// device compares equal however its JSON text was spaced.
final class DeviceTable {
    /// Row id by symbol id (symbol ids are small and dense, as in `SymbolBytes`): no hashing per row.
    private var ids: [Int64?] = []
    /// Inserts the device, or returns the id of the one already stored.
    private let upsert: Statement

    init(db: SQLiteConnection) throws {
        upsert = try db.prepare(
            "INSERT INTO devices (attributes) VALUES (json(?1)) "
                + "ON CONFLICT (attributes) DO UPDATE SET attributes = excluded.attributes RETURNING id",
            persistent: true)
    }

    /// Binds the device's row id, or NULL when the record names no device.
    @inline(__always)
    func bind(_ device: Symbol, to statement: Statement, at index: Int32) throws {
        if device.isEmpty { try statement.bindNull(index); return }
        let i = Int(device.id)
        if i < ids.count, let id = ids[i] { try statement.bindInt(index, id); return }
        try statement.bindInt(index, try id(of: device))
    }

    /// After a rollback the cached ids may name rows that were never committed.
    func forget() { ids.removeAll() }

    private func id(of device: Symbol) throws -> Int64 {
        try upsert.bindText(1, device.text)
        defer { upsert.reset() }
        _ = try upsert.step()  // RETURNING yields the row's id
        let id = upsert.int(0)
        while try upsert.step() {}
        let i = Int(device.id)
        if i >= ids.count { ids.append(contentsOf: repeatElement(nil, count: i + 1 - ids.count)) }
        ids[i] = id
        return id
    }
}
