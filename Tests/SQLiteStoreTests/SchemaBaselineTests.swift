import Foundation
import HealthPipeCore
import Testing
@testable import SQLiteStore

/// A new database is created straight at the current version from the table description
/// (`StoreTables` → `SQLiteDDL.baseline`); an older one migrates step by step. Both must end with the
/// same schema, compared as SQLite reports it (columns, keys, indexes, foreign keys, views), not as
/// the text of `sqlite_schema`, which ALTER TABLE leaves different.
@Suite struct SchemaBaselineTests {
    /// Every table's and view's shape, one line each fact, sorted.
    static func shape(_ path: String) throws -> [String] {
        var out: [String] = []
        let objects = try RawSQLite.rows(path, """
            SELECT l.name, l.type, l.wr FROM pragma_table_list l
             WHERE l.schema = 'main' AND l.name NOT LIKE 'sqlite_%' ORDER BY l.name
            """)
        for o in objects {
            let name = o[0]!, kind = o[1]!
            out.append("\(kind) \(name) without_rowid=\(o[2]!)")
            for c in try RawSQLite.rows(path, "SELECT cid, name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo('\(name)')") {
                out.append("\(name) column " + c.map { $0 ?? "NULL" }.joined(separator: " "))
            }
            if kind == "view" {
                let sql = try RawSQLite.value(path, "SELECT sql FROM sqlite_schema WHERE name = '\(name)'") ?? ""
                out.append("\(name) select \(Self.normalizedSQL(sql))")
                continue
            }
            for i in try RawSQLite.rows(path, "SELECT name, \"unique\", origin, partial FROM pragma_index_list('\(name)') ORDER BY name") {
                out.append("\(name) index " + i.map { $0 ?? "NULL" }.joined(separator: " "))
                for k in try RawSQLite.rows(path, "SELECT seqno, cid, name, \"desc\", coll, key FROM pragma_index_xinfo('\(i[0]!)')") {
                    out.append("\(name) index \(i[0]!) column " + k.map { $0 ?? "NULL" }.joined(separator: " "))
                }
            }
            for f in try RawSQLite.rows(path, "SELECT \"table\", \"from\", \"to\", on_update, on_delete, \"match\" FROM pragma_foreign_key_list('\(name)')") {
                out.append("\(name) foreign key " + f.map { $0 ?? "NULL" }.joined(separator: " "))
            }
        }
        return out.sorted()
    }

    /// A view's SELECT without comments, quotes around names, or layout.
    static func normalizedSQL(_ sql: String) -> String {
        sql.split(separator: "\n").map { line in line.range(of: "--").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: " ").replacingOccurrences(of: "\"", with: "")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func aBaselineDatabaseEqualsOneMigratedFromVersion1() throws {
        let dir = try TempDirectory()
        let fresh = dir.path("baseline.sqlite"), old = dir.path("v1.sqlite")
        _ = try SQLiteSchema.open(path: fresh)
        let v1 = try SQLiteConnection(path: old)
        try Migrator(migrations: [SQLiteSchema.migrator.migrations[0]]).migrate(v1)
        #expect(try Migrator.version(of: v1) == 1)
        _ = try SQLiteSchema.open(path: old)

        let a = try Self.shape(fresh), b = try Self.shape(old)
        #expect(a.count > 300, "the dump sees every table's columns and indexes")
        #expect(a.filter { !b.contains($0) } == [], "only in the baseline")
        #expect(b.filter { !a.contains($0) } == [], "only in the migrated database")
        #expect(try RawSQLite.value(fresh, "PRAGMA user_version") == String(SQLiteSchema.version))
    }

    @Test func aNewDatabaseIsMadeByTheBaselineAndAnOlderOneByTheSteps() throws {
        let dir = try TempDirectory()
        let path = dir.path("new.sqlite")
        _ = try SQLiteSchema.open(path: path)
        // The baseline's text, not version 1's: version 1 declared `path TEXT NOT NULL UNIQUE` inline.
        #expect(try RawSQLite.value(path, "SELECT sql FROM sqlite_schema WHERE name = 'imports'")?.contains("UNIQUE (path)") == true)
        // A database with tables but no version is not empty and not HealthPipe's: refused before anything is written.
        let other = dir.path("other.sqlite")
        try RawSQLite.execute(other, "CREATE TABLE imports (x)")
        #expect(throws: SQLiteForeignDatabaseError.self) { try SQLiteSchema.open(path: other) }
    }

    @Test func theDescriptionCoversEveryTableAndWriterColumns() throws {
        let dir = try TempDirectory()
        let path = dir.path("s.sqlite")
        _ = try SQLiteSchema.open(path: path)
        let stored = try RawSQLite.rows(path, "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'")
            .map { $0[0]! }
        #expect(Set(stored) == Set(StoreTables.tables(in: .sqlite).map(\.name) + StoreTables.views(in: .sqlite).map(\.name)))
        #expect(GridUpsert.columns == ["subject", "metric", "source", "start", "end", "value", "utc_offset", "unit", "flags", "band"])
        #expect(EventWriter.sql.contains("INSERT INTO events (subject, kind, subtype, source, start, amount, end, utc_offset"))
        // The same upsert as before the description (its SET and compare lists in table order).
        let conflict = """
            ON CONFLICT (subject, kind, subtype, source, start, amount) DO UPDATE SET end = excluded.end, \
            utc_offset = excluded.utc_offset, carbs_g = excluded.carbs_g, protein_g = excluded.protein_g, fat_g = excluded.fat_g, \
            insulin_u = excluded.insulin_u, intensity = excluded.intensity, note = excluded.note, flags = excluded.flags, \
            import_id = excluded.import_id, line = excluded.line, metadata = excluded.metadata, device_id = excluded.device_id \
            WHERE events.end IS NOT excluded.end OR events.utc_offset IS NOT excluded.utc_offset OR events.carbs_g IS NOT excluded.carbs_g \
            OR events.protein_g IS NOT excluded.protein_g OR events.fat_g IS NOT excluded.fat_g OR events.insulin_u IS NOT excluded.insulin_u \
            OR events.intensity IS NOT excluded.intensity OR events.note IS NOT excluded.note OR events.flags IS NOT excluded.flags \
            OR events.metadata IS NOT excluded.metadata OR events.device_id IS NOT excluded.device_id
            """
        #expect(EventWriter.sql.hasSuffix(conflict))
    }

    /// `MeasurementWriter` binds by position in the order of the description's columns: a reading
    /// whose every field differs from the others comes back with each in its own column.
    @Test func theMeasurementWriterBindsEachFieldToItsColumn() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let other = dir.path("other.csv"), file = dir.path("clarity.csv")
        let m = Measurement(subject: Symbol("alice"), metric: Symbol("glucose"), source: Symbol("Dexcom G6"), start: 1_700_000_000,
                            end: 1_700_000_060, utcOffset: 3600, value: 123.5, unit: Symbol("mg/dL"), flags: [.belowSensorRange, .userEntered],
                            band: Symbol("high"), provenance: Provenance(file: Symbol(file), line: 7),
                            device: DeviceText.symbol([("name", "G6")]), metadata: #"{"k":"v"}"#)
        // The reading's file is the second import (id 2); its device the first (id 1).
        try h.run([RecordBatch(measurements: [m])], inputs: [Fixture.input(other, rows: 0), Fixture.input(file, rows: 1, measurements: 1)])
        let expected: [String: String] = [
            "subject": "alice", "metric": "glucose", "source": "Dexcom G6", "start": "1700000000", "end": "1700000060",
            "value": "123.5", "utc_offset": "3600", "unit": "mg/dL", "flags": "5", "band": "high", "import_id": "2", "line": "7",
            "metadata": #"{"k":"v"}"#, "device_id": "1",
        ]
        let columns = StoreTables.measurements.columns.map(\.name)
        #expect(Set(columns) == Set(expected.keys))
        let row = try #require(try RawSQLite.rows(h.dbPath, "SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM measurements").first)
        #expect(Dictionary(uniqueKeysWithValues: zip(columns, row.map { $0 ?? "NULL" })) == expected)
    }
}
