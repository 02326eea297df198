import HealthPipeCore
import Testing
import SQLiteStore

@Suite struct SinkMeasurementTests {
    @Test func writesMeasurementsWithProvenanceAndImportLog() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let file = dir.path("clarity.csv")
        var rows = Fixture.readings(file: file, count: 3)
        rows[1].flags = [.belowSensorRange, .userEntered]
        rows[2].band = Symbol("in range")
        rows[2].end = rows[2].start + 60
        try h.run([RecordBatch(measurements: rows)], inputs: [Fixture.input(file, rows: 4, measurements: 3)], batchRows: 2)

        #expect(try RawSQLite.rows(h.dbPath, """
            SELECT subject, metric, source, start, end, utc_offset, value, unit, flags, band, import_id, line
            FROM measurements ORDER BY start
            """) == [
            ["alice", "glucose", "Dexcom G6", "1700000000", "1700000000", "3600", "100.0", "mg/dL", "0", nil, "1", "2"],
            ["alice", "glucose", "Dexcom G6", "1700000300", "1700000300", "3600", "101.0", "mg/dL", "5", nil, "1", "3"],
            ["alice", "glucose", "Dexcom G6", "1700000600", "1700000660", "3600", "102.0", "mg/dL", "0", "in range", "1", "4"],
        ])
        #expect(try RawSQLite.rows(h.dbPath, """
            SELECT id, path, format, size, hash, first_started_at, started_at, finished_at IS NOT NULL, status, runs,
                   rows_read, measurements, events, rejected, new_rows FROM imports
            """) == [
            ["1", file, "dexcom-clarity", "320", "00ff00ff00ff00ff", "1700000000", "1700000000", "1", "complete", "1",
             "4", "3", "0", "0", "3"],
        ])
    }

    @Test func rewritingTheSameBatchWritesNothing() throws {
        let dir = try TempDirectory()
        var h = SinkHarness(dir)
        let file = dir.path("clarity.csv")
        let batch = RecordBatch(measurements: Fixture.readings(file: file, count: 500))
        let input = Fixture.input(file, rows: 500, measurements: 500)
        try h.run([batch], inputs: [input], batchRows: 64)
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "500")

        h.startedAt += 86_400
        try h.run([batch, batch], inputs: [input], batchRows: 64)
        #expect(try RawSQLite.count(h.dbPath, "measurements") == 500)
        #expect(try RawSQLite.rows(h.dbPath, "SELECT runs, new_rows, first_started_at, started_at, status FROM imports") == [
            ["2", "0", "1700000000", "1700086400", "complete"],
        ])
    }

    @Test func aCorrectedValueChangedFlagsAndBandUpdateInPlace() throws {
        let dir = try TempDirectory()
        var h = SinkHarness(dir)
        let file = dir.path("clarity.csv")
        let input = Fixture.input(file, rows: 10, measurements: 10)
        try h.run([RecordBatch(measurements: Fixture.readings(file: file, count: 10))], inputs: [input])

        var changed = Fixture.readings(file: file, count: 10)
        changed[4].value = 250
        changed[7].flags = [.calibration]
        changed[8].band = Symbol("high")
        h.startedAt += 60
        try h.run([RecordBatch(measurements: changed)], inputs: [input])

        // The value is not part of the natural key: a corrected value replaces the row it corrects.
        #expect(try RawSQLite.count(h.dbPath, "measurements") == 10)
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "3")
        #expect(try RawSQLite.value(h.dbPath, "SELECT group_concat(value) FROM measurements WHERE start = 1700001200") == "250.0")
        #expect(try RawSQLite.value(h.dbPath, "SELECT flags FROM measurements WHERE start = 1700002100") == "32")
        #expect(try RawSQLite.value(h.dbPath, "SELECT band FROM measurements WHERE start = 1700002400") == "high")
    }

    @Test func unannouncedFilesGetAnImportRowAndRecordsWithoutFileGetNone() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let zip = dir.path("export.zip")
        let member = dir.path("export.zip/apple_health_export/export.xml")
        var rows = Fixture.readings(file: member, count: 2)
        rows.append(Measurement(subject: Fixture.subject, metric: Fixture.glucose, source: Fixture.dexcom, start: 5,
                                utcOffset: 0, value: 90, unit: Fixture.mgdl))
        try h.run([RecordBatch(measurements: rows)], inputs: [Fixture.input(zip, rows: 2, measurements: 2)],
                  outcome: .interrupted)

        #expect(try RawSQLite.rows(h.dbPath, "SELECT id, path, status, new_rows, format FROM imports ORDER BY id") == [
            ["1", zip, "interrupted", "0", "dexcom-clarity"],
            ["2", member, "interrupted", "2", ""],
        ])
        #expect(try RawSQLite.rows(h.dbPath, "SELECT import_id, line FROM measurements ORDER BY start") == [
            [nil, nil], ["2", "2"], ["2", "3"],
        ])
    }

    @Test func newRowsAreCountedPerFileWhenFilesInterleave() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let a = dir.path("a.csv"), b = dir.path("b.csv")
        // Runs of 100 rows from a, 30 from b, 100 from a…: grouped and single-row writes mix.
        var rows: [Measurement] = []
        for block in 0..<6 {
            let file = block % 2 == 0 ? a : b
            let n = block % 2 == 0 ? 100 : 30
            rows += Fixture.readings(file: file, count: n, start: 1_700_000_000 + Int64(block) * 1_000_000)
        }
        try h.run([RecordBatch(measurements: rows)], inputs: [Fixture.input(a, rows: 300), Fixture.input(b, rows: 90)])
        #expect(try RawSQLite.rows(h.dbPath, "SELECT path, new_rows FROM imports ORDER BY id") == [[a, "300"], [b, "90"]])
        #expect(try RawSQLite.rows(h.dbPath, """
            SELECT i.path, count(*), min(m.line), max(m.line) FROM measurements m JOIN imports i ON i.id = m.import_id
            GROUP BY i.path ORDER BY i.path
            """) == [[a, "300", "2", "101"], [b, "90", "2", "31"]])
    }

    @Test func createsParentFolders() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir, name: "a/b/c/health.sqlite")
        try h.run([], inputs: [])
        #expect(try RawSQLite.value(h.dbPath, "PRAGMA user_version") == String(SQLiteSchema.version))
    }
}
