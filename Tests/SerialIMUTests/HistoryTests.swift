import Charts
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import SQLiteStore
import Testing

@Suite struct HistoryChartTests {
    let wednesday = CivilDate.days(year: 2026, month: 1, day: 7)

    func iso(_ d: Int64) -> String { CivilDate.isoDate(fromDays: d) }

    @Test func periodsAndNavigation() {
        var r = HistoryChart.range(period: .week, offset: 0, today: wednesday)
        #expect((iso(r.first), iso(r.last)) == ("2026-01-05", "2026-01-11"))
        r = HistoryChart.range(period: .week, offset: -1, today: wednesday)
        #expect((iso(r.first), iso(r.last)) == ("2025-12-29", "2026-01-04"))
        r = HistoryChart.range(period: .month, offset: -1, today: wednesday)
        #expect((iso(r.first), iso(r.last)) == ("2025-12-01", "2025-12-31"))
        r = HistoryChart.range(period: .month, offset: 1, today: wednesday)
        #expect((iso(r.first), iso(r.last)) == ("2026-02-01", "2026-02-28"))
        r = HistoryChart.range(period: .year, offset: -2, today: wednesday)
        #expect((iso(r.first), iso(r.last)) == ("2024-01-01", "2024-12-31"))
        // A Sunday belongs to the week that started on the Monday before it.
        let sunday = CivilDate.days(year: 2026, month: 1, day: 11)
        #expect(iso(HistoryChart.range(period: .week, offset: 0, today: sunday).first) == "2026-01-05")
    }

    @Test func emptyPeriodIsAnEmptySeriesNotAnError() {
        let chart = HistoryChart.build(period: .month, offset: -3, today: wednesday, entries: [])
        #expect(chart.isEmpty)
        #expect(chart.buckets.count == 31)
        #expect(chart.buckets.allSatisfy { $0.sessions == 0 && $0.average == nil })
        let json = String(decoding: chart.json(), as: UTF8.self)
        #expect(json.contains("\"empty\":true"))
        #expect(json.contains("\"period\":\"month\""))
        #expect(chart.text().contains("no sessions"))
    }

    @Test func sessionsLandInTheirLocalDayAndMonth() {
        // 23:30 UTC on Sunday 4 January is already Monday 5 January in Tokyo (+9 h).
        let lateSunday = CivilDate.days(year: 2026, month: 1, day: 4) * 86_400 + 23 * 3600 + 1800
        let entries = [
            HistoryChart.Entry(start: lateSunday, end: lateSunday + 120, utcOffset: 9 * 3600, average: 0.4, accomplishment: 80, origin: "nano"),
            HistoryChart.Entry(start: lateSunday, end: lateSunday + 60, utcOffset: 0, average: nil, accomplishment: nil, origin: "apple"),
        ]
        let week = HistoryChart.build(period: .week, offset: 0, today: wednesday, entries: entries)
        #expect(week.buckets.map(\.sessions) == [1, 0, 0, 0, 0, 0, 0])
        #expect(week.buckets[0].label == "Mon")
        #expect(week.buckets[0].minutes == 2)
        #expect(week.buckets[0].average == 0.4)
        let previous = HistoryChart.build(period: .week, offset: -1, today: wednesday, entries: entries)
        #expect(previous.buckets[6].sessions == 1)
        #expect(previous.buckets[6].average == nil)
        let year = HistoryChart.build(period: .year, offset: 0, today: wednesday, entries: entries)
        #expect(year.buckets.count == 12)
        #expect(year.buckets[0].sessions == 2)
        #expect(HistoryChart.build(period: .year, offset: -1, today: wednesday, entries: entries).buckets[11].sessions == 0)
    }
}

@Suite struct SessionStorageTests {
    func session(_ startMs: Int64, offset: Int32 = 3600, device: String = "nano33") -> MotionSession {
        MotionSession(subject: Symbol("alice"), device: Symbol(device), source: Symbol("serial-imu"), start: startMs,
                      end: startMs + 120_500, utcOffset: offset, average: 0.42, accomplishment: 87.5, activeSeconds: 110,
                      samples: 14_340, endReason: .target)
    }

    func write(_ sessions: [MotionSession], to path: String) throws {
        let sink = SQLiteSink(path: path)
        let ctx = StageContext.forTesting("sqlite", name: "db", quarantine: QuarantineWriter(path: path + ".q"))
        try sink.open(run: RunInfo(id: "t", startedAt: 0, inputPaths: []), context: ctx)
        try sink.write(RecordBatch(motionSamples: [], motionSessions: sessions), context: ctx)
        try sink.close(outcome: .completed, report: RunReport(), context: ctx)
    }

    @Test func sessionsAreStoredWithTheSeedsDateFieldsAndUpserted() throws {
        let folder = try TempFolder()
        let path = folder.path("b.sqlite")
        // 2024-02-29 23:30 UTC = Friday 1 March 00:30 at +01:00.
        let start = CivilDate.days(year: 2024, month: 2, day: 29) * 86_400_000 + (23 * 3600 + 1800) * 1000
        try write([session(start)], to: path)
        try write([session(start)], to: path)
        let db = try SQLiteConnection(path: path, readOnly: true)
        #expect(try db.scalarInt("SELECT count(*) FROM motion_sessions") == 1)
        let s = try db.prepare("SELECT year, month, day, time, day_of_week, days_in_month, duration_s, average, accomplishment, end_reason, start FROM motion_sessions")
        #expect(try s.step())
        #expect((s.int(0), s.int(1), s.int(2), s.text(3), s.int(4), s.int(5)) == (2024, 3, 1, "00:30:00", 5, 31))
        #expect((s.double(6), s.double(7), s.double(8), s.text(9)) == (120.5, 0.42, 87.5, "target"))
        #expect(s.int(10) == start / 1000)
    }

    @Test func aFinishedSessionIsCommittedBeforeTheStreamEnds() throws {
        let folder = try TempFolder()
        let path = folder.path("live.sqlite")
        let sink = SQLiteSink(path: path)
        let ctx = StageContext.forTesting("sqlite", name: "db", quarantine: QuarantineWriter(path: path + ".q"))
        try sink.open(run: RunInfo(id: "t", startedAt: 0, inputPaths: []), context: ctx)
        try sink.write(RecordBatch(motionSamples: [], motionSessions: [session(1_767_598_200_000)]), context: ctx)
        // Another reader sees it while the sink is still open (the stream still running).
        let reader = try SQLiteConnection(path: path, readOnly: true)
        #expect(try reader.scalarInt("SELECT count(*) FROM motion_sessions") == 1)
        try sink.close(outcome: .interrupted, report: RunReport(), context: ctx)
    }

    @Test func historyIncludesAppleHealthToothbrushingRows() throws {
        let folder = try TempFolder()
        let path = folder.path("b.sqlite")
        let monday = CivilDate.days(year: 2026, month: 1, day: 5) * 86_400
        try write([session((monday + 7 * 3600) * 1000, offset: 0)], to: path)
        // What the Apple Health source stores for HKCategoryTypeIdentifierToothbrushingEvent.
        let db = try SQLiteSchema.open(path: path)
        try db.execute("""
            INSERT INTO measurements (subject, metric, source, start, end, value, utc_offset, unit)
              VALUES ('alice', 'toothbrushing', 'Oral-B', \(monday + 86_400 + 20 * 3600), \(monday + 86_400 + 20 * 3600 + 130), 1, 0, 'count');
            INSERT INTO events (subject, kind, subtype, source, start, end, utc_offset)
              VALUES ('alice', 'note', 'toothbrushing', 'Watch', \(monday + 2 * 86_400 + 7 * 3600), \(monday + 2 * 86_400 + 7 * 3600 + 100), 0);
            INSERT INTO measurements (subject, metric, source, start, end, value, utc_offset, unit)
              VALUES ('bob', 'toothbrushing', 'Oral-B', \(monday + 3600), \(monday + 3700), 1, 0, 'count');
            """)
        let rows = try BrushingHistory.rows(path: path, subject: "alice", from: monday, to: monday + 7 * 86_400)
        #expect(rows.map(\.kind) == ["motion", "measurement", "event"])
        #expect(rows.map(\.origin) == ["nano33", "Oral-B", "Watch"])
        #expect(rows[0].average == 0.42 && rows[1].average == nil)
        let chart = HistoryChart.build(period: .week, offset: 0, today: monday / 86_400 + 2, entries: rows.map {
            HistoryChart.Entry(start: $0.start, end: $0.end, utcOffset: $0.utcOffset, average: $0.average,
                               accomplishment: $0.accomplishment, origin: $0.origin)
        })
        #expect(chart.buckets.map(\.sessions) == [1, 1, 1, 0, 0, 0, 0])
        #expect(try BrushingHistory.rows(path: path, subject: "alice", from: monday - 7 * 86_400, to: monday).isEmpty)
    }

    @Test func versionFiveAppliesOnTopOfTheOtherHelpersVersions() throws {
        let folder = try TempFolder()
        let path = folder.path("v4.sqlite")
        // A database another branch took to version 4 with tables of its own.
        do {
            let db = try SQLiteConnection(path: path)
            try Migrator(migrations: SQLiteSchema.migrator.migrations.filter { $0.version <= 2 }).migrate(db)
            try db.execute("CREATE TABLE apple_workouts (id INTEGER PRIMARY KEY); INSERT INTO apple_workouts VALUES (7); PRAGMA user_version = 4;")
        }
        let db = try SQLiteSchema.open(path: path)
        #expect(try Migrator.version(of: db) == SQLiteSchema.version)
        #expect(try db.scalarInt("SELECT count(*) FROM apple_workouts") == 1)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name IN ('motion_sessions', 'brushing_sessions')") == 2)
    }
}
