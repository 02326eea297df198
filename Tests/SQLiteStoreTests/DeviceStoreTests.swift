import HealthPipeCore
import Testing
import SQLiteStore

/// Devices are stored once in `devices` and referenced by `device_id`.
@Suite struct DeviceStoreTests {
    static let watch = DeviceText.symbol([("name", "Apple Watch"), ("manufacturer", "Apple Inc."), ("model", "Watch"),
                                          ("hardware", "Watch6,2"), ("software", "9.2")])
    static let phone = DeviceText.symbol([("name", "iPhone"), ("manufacturer", "Apple Inc."), ("model", "iPhone"),
                                          ("hardware", "iPhone14,2"), ("software", "17.1")])

    @Test func eachDeviceIsStoredOnceAndReferenced() throws {
        let dir = try TempDirectory()
        var h = SinkHarness(dir)
        let file = dir.path("export.xml")
        var rows = Fixture.readings(file: file, count: 200)
        for i in rows.indices { rows[i].device = i % 3 == 0 ? Self.phone : i % 3 == 1 ? Self.watch : .empty }
        var event = Event(subject: Symbol("alice"), kind: .insulin, subtype: Symbol("bolus"), source: Symbol("Omnipod"),
                          start: 1_700_000_000, utcOffset: 0, insulin: 2.5, provenance: Provenance(file: Symbol(file), line: 9))
        event.device = Self.watch
        let input = Fixture.input(file, rows: 201, measurements: 200)
        try h.run([RecordBatch(measurements: rows, events: [event])], inputs: [input], batchRows: 64)

        #expect(try RawSQLite.rows(h.dbPath, "SELECT id, name, manufacturer, model, hardware, software FROM devices ORDER BY id")
                == [["1", "iPhone", "Apple Inc.", "iPhone", "iPhone14,2", "17.1"],
                    ["2", "Apple Watch", "Apple Inc.", "Watch", "Watch6,2", "9.2"]])
        #expect(try RawSQLite.rows(h.dbPath, "SELECT device_id, count(*) FROM measurements GROUP BY 1 ORDER BY 1")
                == [[nil, "66"], ["1", "67"], ["2", "67"]])
        #expect(try RawSQLite.value(h.dbPath, "SELECT device_id FROM events") == "2")

        // A second run (a new session, an empty id cache) finds the stored devices and changes nothing.
        h.startedAt += 86_400
        try h.run([RecordBatch(measurements: rows, events: [event])], inputs: [input], batchRows: 64)
        #expect(try RawSQLite.count(h.dbPath, "devices") == 2)
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "0")

        // The same reading named by another device (another export of one sensor) is not a change;
        // when the reading itself changes, its device follows.
        rows[1].device = Self.phone
        h.startedAt += 86_400
        try h.run([RecordBatch(measurements: rows)], inputs: [input], batchRows: 64)
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "0")
        #expect(try RawSQLite.value(h.dbPath, "SELECT device_id FROM measurements WHERE start = \(rows[1].start)") == "2")
        rows[1].value += 1
        h.startedAt += 86_400
        try h.run([RecordBatch(measurements: rows)], inputs: [input], batchRows: 64)
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "1")
        #expect(try RawSQLite.count(h.dbPath, "measurements") == 200)
        #expect(try RawSQLite.value(h.dbPath, "SELECT device_id FROM measurements WHERE start = \(rows[1].start)") == "1")
    }

    /// A version-5 database kept each Apple row's device inside `metadata`; version 6 moves it out.
    @Test func version5MetadataDevicesMoveToTheDevicesTable() throws {
        let dir = try TempDirectory()
        let path = dir.path("v5.sqlite")
        let v5 = Migrator(migrations: SQLiteSchema.migrator.migrations.filter { $0.version <= 5 })
        try v5.migrate(try SQLiteConnection(path: path))
        let device = #"{"name":"Apple Watch","manufacturer":"Apple Inc.","model":"Watch","hardware":"Watch6,2","software":"9.2"}"#
        try RawSQLite.execute(path, """
            INSERT INTO measurements (subject, metric, source, start, end, value, utc_offset, unit, metadata) VALUES
              ('default', 'heart_rate', 'Watch', 1, 1, 70, 0, 'count/min', '{"device":\(device)}'),
              ('default', 'heart_rate', 'Watch', 2, 2, 71, 0, 'count/min', '{"HKMetadataKeyHeartRateMotionContext":"1","device":\(device)}'),
              ('default', 'glucose', 'Dexcom', 3, 3, 99, 0, 'mg/dL', NULL),
              ('default', 'weight', 'Scale', 4, 4, 70, 0, 'kg', '{"note":"the device was new"}');
            INSERT INTO events (subject, kind, subtype, source, start, end, utc_offset, amount, metadata) VALUES
              ('default', 'exercise', 'running', 'Watch', 5, 65, 0, 0, '{"activity":"running","device":\(device)}');
            """)
        _ = try SQLiteSchema.open(path: path)
        #expect(try RawSQLite.rows(path, "SELECT id, name, hardware FROM devices") == [["1", "Apple Watch", "Watch6,2"]])
        #expect(try RawSQLite.rows(path, "SELECT start, device_id, metadata FROM measurements ORDER BY start") == [
            ["1", "1", nil],
            ["2", "1", #"{"HKMetadataKeyHeartRateMotionContext":"1"}"#],
            ["3", nil, nil],
            ["4", nil, #"{"note":"the device was new"}"#],
        ])
        #expect(try RawSQLite.rows(path, "SELECT device_id, metadata FROM events") == [["1", #"{"activity":"running"}"#]])

        // Re-importing the same record now writes the same row: nothing changes.
        let reopened = try SQLiteSchema.open(path: path)
        #expect(try reopened.scalarInt("SELECT count(*) FROM devices WHERE attributes = json('\(device)')") == 1)
    }
}
