import CSQLite
import HealthPipeCore
import HealthPipeTestSupport
@testable import SQLiteStore
import Testing

/// `GridWriter` reconciles the stored `resample` grid with a run's grid. Whatever the stored state
/// and the incoming points (duplicates, points arriving after later ones, changed offsets, units and
/// bands, readings sharing a grid key, grid rows in series no longer written), it must leave exactly
/// what deleting every grid row and upserting the points in order leaves — the rewrite it replaces.
@Suite struct GridReconcileTests {
    static let glucose = Symbol("glucose"), mgdl = Symbol("mg/dL"), mmol = Symbol("mmol/L")

    static func point(_ subject: String, _ source: String, start: Int64, value: Double, offset: Int32 = 0,
                      unit: Symbol = mgdl, band: Symbol = .empty, flags: RecordFlags = .interpolated) -> HealthPipeCore.Measurement {
        HealthPipeCore.Measurement(subject: Symbol(subject), metric: glucose, source: Symbol(source), start: start,
                                   utcOffset: offset, value: value, unit: unit, flags: flags, band: band)
    }

    /// A grid as `resample` emits it: per series in time order, with a few points repeated or
    /// arriving after later ones (a clock going back), and now and then another offset, unit or band.
    static func grid(_ r: inout SplitMix64, series: [(String, String)], from: Int64) -> [HealthPipeCore.Measurement] {
        var out: [HealthPipeCore.Measurement] = []
        for (subject, source) in series {
            var t = from + Int64(r.below(4)) * 300
            for _ in 0..<(40 + r.below(80)) {
                t += Int64(1 + r.below(2)) * 300
                var start = t
                if r.chance(4) { start -= Int64(r.below(30)) * 300 }  // behind the points before it
                let band = r.chance(5) ? Symbol("low") : Symbol.empty
                out.append(point(subject, source, start: start, value: Double(100 + r.below(3)), offset: r.chance(5) ? 3600 : 0,
                                 unit: r.chance(3) ? mmol : mgdl, band: band,
                                 flags: r.chance(3) ? [.interpolated, .userEntered] : .interpolated))
            }
        }
        return out
    }

    /// Writes `rows` through `GridUpsert` on a connection of the database, committing.
    static func upsert(_ path: String, _ rows: [HealthPipeCore.Measurement], deletingGridFirst: Bool) throws {
        let db = try SQLiteSchema.open(path: path)
        try db.execute("BEGIN IMMEDIATE")
        if deletingGridFirst { try db.execute("DELETE FROM measurements WHERE flags & 128 != 0") }
        try GridUpsert(db: db, symbols: SymbolBytes()).write(rows)
        try db.execute("COMMIT")
    }

    /// Runs the writer over `batches` in one transaction; returns the rows it inserted, updated or deleted.
    @discardableResult
    static func reconcile(_ path: String, _ batches: [[HealthPipeCore.Measurement]]) throws -> Int32 {
        let db = try SQLiteSchema.open(path: path)
        let writer = try GridWriter(db: db, symbols: SymbolBytes(), survey: StoredGridGroupsSurvey(path: path))
        try db.execute("BEGIN IMMEDIATE")
        let before = sqlite3_total_changes(db.handle)
        for b in batches { try writer.write(b) }
        try writer.finish()
        let changes = sqlite3_total_changes(db.handle) - before
        try db.execute("COMMIT")
        return changes
    }

    static func dump(_ path: String) throws -> [[String?]] {
        try RawSQLite.rows(path, "SELECT * FROM measurements ORDER BY subject, metric, source, start, end, value")
    }

    /// Splits points into batches of random size, as they would reach the sink.
    static func batches(_ points: [HealthPipeCore.Measurement], _ r: inout SplitMix64) -> [[HealthPipeCore.Measurement]] {
        var out: [[HealthPipeCore.Measurement]] = []
        var i = 0
        while i < points.count {
            let n = min(points.count - i, 1 + r.below(60))
            out.append(Array(points[i..<(i + n)]))
            i += n
        }
        return out
    }

    @Test(arguments: 0..<40)
    func leavesWhatDeletingAndReinsertingLeaves(seed: Int) throws {
        var r = SplitMix64(state: UInt64(seed) &* 7919 &+ 17)
        let dir = try TempDirectory()
        let a = dir.path("reconciled.sqlite"), b = dir.path("rewritten.sqlite")
        for path in [a, b] { _ = try SQLiteSchema.open(path: path) }
        // Readings: a device series, and some in the grid's own series at grid keys.
        var readings: [HealthPipeCore.Measurement] = (0..<50).map { i in Self.point("s1", "cgm", start: 1_000_000 + Int64(i) * 300, value: 100, flags: []) }
        for _ in 0..<6 { readings.append(Self.point("s1", "resampled", start: 1_000_000 + Int64(r.below(120)) * 300, value: 101, flags: [])) }
        // A previous grid: the series written again, one not written any more, and grid rows among readings.
        let old = Self.grid(&r, series: [("s1", "resampled"), ("s2", "resampled"), ("s3", "resampled")], from: 1_000_000)
            + [Self.point("s1", "cgm", start: 1_000_150, value: 99)]
        for path in [a, b] {
            try Self.upsert(path, readings, deletingGridFirst: false)
            try Self.upsert(path, old, deletingGridFirst: true)
            // A grid row written by an import (with provenance) is not what the rewrite would store.
            try RawSQLite.execute(path, "UPDATE measurements SET import_id = 7, line = 3 WHERE source = 'resampled' AND (start - 1000000) % 900 = 0")
        }
        // The new grid overlaps the old one, shifted in part, and adds a series.
        let new = Self.grid(&r, series: [("s1", "resampled"), ("s2", "resampled"), ("s1", "grid2")], from: 1_000_000 + Int64(r.below(20)) * 300)
        try Self.reconcile(a, Self.batches(new, &r))
        try Self.upsert(b, new, deletingGridFirst: true)
        #expect(try Self.dump(a) == Self.dump(b))
    }

    @Test func anUnchangedGridIsNotWrittenAgain() throws {
        let dir = try TempDirectory()
        let path = dir.path("g.sqlite")
        _ = try SQLiteSchema.open(path: path)
        let points: [HealthPipeCore.Measurement] = (0..<500).map { i in
            Self.point(i < 250 ? "a" : "b", "resampled", start: 1_000_000 + Int64(i % 250) * 300, value: Double(i % 7))
        }
        var r = SplitMix64(state: 1)
        #expect(try Self.reconcile(path, Self.batches(points, &r)) == 500)
        let first = try Self.dump(path)
        #expect(try Self.reconcile(path, Self.batches(points, &r)) == 0)
        #expect(try Self.dump(path) == first)
    }

    @Test func aChangedGridReplacesOnlyWhatChangedAndDropsStalePoints() throws {
        let dir = try TempDirectory()
        let path = dir.path("g.sqlite")
        _ = try SQLiteSchema.open(path: path)
        let points: [HealthPipeCore.Measurement] = (0..<100).map { i in Self.point("a", "resampled", start: 1_000_000 + Int64(i) * 300, value: 100) }
        try Self.reconcile(path, [points])
        // One value changes (a new key: one insert, one delete), one offset changes (a rewrite:
        // delete and insert), the last ten points are gone, ten earlier ones too.
        var changed = Array(points[10..<90])
        changed[5].value = 101
        changed[6].utcOffset = 3600
        #expect(try Self.reconcile(path, [changed]) == 2 + 2 + 10 + 10)
        #expect(try RawSQLite.rows(path, "SELECT count(*), min(start), max(start), sum(value), sum(utc_offset) FROM measurements")
                == [["80", "1003000", "1026700", "8001.0", "3600"]])
    }

    @Test func gridRowsOfSeriesNotWrittenAreDeletedAndReadingsKept() throws {
        let dir = try TempDirectory()
        let path = dir.path("g.sqlite")
        _ = try SQLiteSchema.open(path: path)
        try Self.upsert(path, [Self.point("a", "cgm", start: 1_000_000, value: 100, flags: []),
                               Self.point("a", "cgm", start: 1_000_300, value: 101),
                               Self.point("b", "resampled", start: 1_000_000, value: 100)], deletingGridFirst: false)
        try Self.reconcile(path, [])
        #expect(try RawSQLite.rows(path, "SELECT subject, source, start, flags FROM measurements") == [["a", "cgm", "1000000", "0"]])
    }
}
