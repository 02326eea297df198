import HealthPipeCore
@testable import SQLiteStore
import Testing

/// The store's hot reads use the keys they were written for. SQLite plans without statistics, so a
/// plan can silently fall back to a scan of a subject's whole history; these pin the ones that did.
@Suite struct QueryPlanTests {
    /// The plan's steps for `sql`, whose parameters are a subject (?1) and times (?2…).
    func plan(_ sql: String, times: Int32) throws -> [String] {
        let dir = try TempDirectory()
        let db = try SQLiteSchema.open(path: dir.path("plan.sqlite"))
        let s = try db.prepare("EXPLAIN QUERY PLAN " + sql)
        try s.bindText(1, "ann")
        for i in 0..<times { try s.bindInt(2 + i, 1_700_000_000) }
        var steps: [String] = []
        while try s.step() { steps.append(s.text(3) ?? "") }
        return steps
    }

    /// A refresh reads the events of its days and the episodes before them that may last into them:
    /// the episodes through the key (subject, kind), never every earlier event through the time index.
    @Test func earlierEpisodesAreSoughtByKindNotScannedByTime() throws {
        let steps = try plan(EventCursor.boundedSQL("kind, start"), times: 3)
        #expect(steps.contains { $0.contains("events USING PRIMARY KEY (subject=? AND kind=?)") }, "\(steps)")
        // The time index only for the range itself.
        #expect(steps.filter { $0.contains("events_by_time") }.allSatisfy { $0.contains("start>? AND start<?") }, "\(steps)")
    }

    /// A day's log entries: the entries drive the join and find their events by key, never the
    /// day's events through the time index (a pump user has hundreds a day, and no entries).
    @Test func logEntriesFindTheirEventsByKey() throws {
        let steps = try plan(HealthLogQueries.entriesSQL(HealthLogQueries.dayEntries), times: 2)
        #expect(steps.first?.contains("SEARCH m ") == true || steps.first?.contains("SCAN m ") == true, "\(steps)")
        #expect(!steps.contains { $0.contains("events_by_time") && $0.contains("start>") }, "\(steps)")
    }
}
