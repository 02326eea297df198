import Foundation
import HealthPipeCore
import Testing
import SQLiteStore

@Suite struct CrashSafetyTests {
    /// Copies the database and its WAL as they are on disk right now: what a SIGKILL would leave.
    static func crashSnapshot(of path: String, to copy: String) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try fm.copyItem(atPath: path, toPath: copy)
        if fm.fileExists(atPath: path + "-wal") { try fm.copyItem(atPath: path + "-wal", toPath: copy + "-wal") }
        // The -shm index is rebuilt from the WAL on recovery, as after a real crash.
    }

    @Test func openTransactionIsInvisibleAndLostOnCrashAndARerunCompletesIt() throws {
        let dir = try TempDirectory()
        var h = SinkHarness(dir)
        let first = dir.path("day1.csv")
        let second = dir.path("day2.csv")
        let committed = Fixture.readings(file: first, count: 1_000)
        try h.run([RecordBatch(measurements: committed)], inputs: [Fixture.input(first, rows: 1_000, measurements: 1_000)])

        // Second run: 20 000 new rows and a changed old one, in a transaction that is never committed.
        h.startedAt += 3600
        let fresh = Fixture.readings(file: second, count: 20_000, start: 1_800_000_000)
        var changedOld = Fixture.readings(file: first, count: 1)
        changedOld[0].flags = [.calibration]
        let pending = [RecordBatch(measurements: fresh), RecordBatch(measurements: changedOld)]
        var (sink, _) = try h.openAndWrite(pending, inputs: [second])

        // Another connection sees exactly the committed state.
        #expect(try RawSQLite.count(h.dbPath, "measurements") == 1_000)
        #expect(try RawSQLite.value(h.dbPath, "SELECT value FROM measurements WHERE start = 1700000000") == "100.0")
        #expect(try RawSQLite.rows(h.dbPath, "SELECT path, status, new_rows FROM imports ORDER BY id") == [
            [first, "complete", "1000"], [second, "running", "0"],
        ])

        // Killed now: the files on disk recover to the committed state.
        let crashed = dir.path("crashed/health.sqlite")
        try Self.crashSnapshot(of: h.dbPath, to: crashed)
        #expect(try RawSQLite.count(crashed, "measurements") == 1_000)
        #expect(try RawSQLite.value(crashed, "PRAGMA integrity_check") == "ok")

        // Re-running the interrupted import on the crashed copy completes the data.
        var rerun = SinkHarness(dir, name: "crashed/health.sqlite")
        rerun.startedAt = h.startedAt + 60
        try rerun.run(pending, inputs: [Fixture.input(second, rows: 20_000, measurements: 20_000)])
        #expect(try RawSQLite.count(crashed, "measurements") == 21_000)
        #expect(try RawSQLite.value(crashed, "SELECT flags FROM measurements WHERE start = 1700000000") == "32")
        #expect(try RawSQLite.rows(crashed, "SELECT path, status, runs, new_rows FROM imports ORDER BY id") == [
            // day1.csv was touched again through the changed row's provenance.
            [first, "complete", "2", "1"], [second, "complete", "2", "20000"],
        ])

        // A sink dropped without close (its thread died) rolls back; the original file stays consistent.
        sink = SQLiteSink(path: h.dbPath)
        _ = sink
        #expect(try RawSQLite.count(h.dbPath, "measurements") == 1_000)
        #expect(try RawSQLite.value(h.dbPath, "PRAGMA integrity_check") == "ok")
    }

    @Test func committedBatchesSurviveAndCountTheirNewRows() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let file = dir.path("big.csv")
        // 2 500 rows at 1 000 rows per transaction: two commits, 500 rows pending.
        let (sink, _) = try h.openAndWrite([RecordBatch(measurements: Fixture.readings(file: file, count: 2_500))],
                                           inputs: [file], batchRows: 1_000)
        let crashed = dir.path("crashed.sqlite")
        try CrashSafetyTests.crashSnapshot(of: h.dbPath, to: crashed)
        #expect(try RawSQLite.count(crashed, "measurements") == 2_000)
        // new_rows commits with the rows it counts.
        #expect(try RawSQLite.rows(crashed, "SELECT status, new_rows FROM imports") == [["running", "2000"]])
        _ = sink
    }

    @Test func closeAfterFailedRunCommitsAndMarksFailed() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let file = dir.path("half.csv")
        try h.run([RecordBatch(measurements: Fixture.readings(file: file, count: 10))],
                  inputs: [Fixture.input(file, rows: 10, measurements: 10)], outcome: .failed)
        #expect(try RawSQLite.count(h.dbPath, "measurements") == 10)
        #expect(try RawSQLite.value(h.dbPath, "SELECT status FROM imports") == "failed")
    }

    @Test func closeWithoutOpenDoesNothing() throws {
        let dir = try TempDirectory()
        let sink = SQLiteSink(path: dir.path("never.sqlite"))
        let h = SinkHarness(dir)
        try sink.close(outcome: .failed, report: RunReport(), context: h.context())
        #expect(!FileManager.default.fileExists(atPath: dir.path("never.sqlite")))
    }

    @Test func sinkRefusesANewerDatabase() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir, name: "future.sqlite")
        try RawSQLite.execute(h.dbPath, "PRAGMA user_version = \(SQLiteSchema.version + 1)")
        #expect(throws: SQLiteSchemaError.self) { try h.run([], inputs: []) }
    }
}
