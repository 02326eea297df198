import HealthPipeCore
import Testing
import SQLiteStore

@Suite struct SinkEventAndDailyTests {
    static func events(file: String) -> [Event] {
        let f = Symbol(file)
        let phone = Symbol("phone")
        return [
            Event(subject: Fixture.subject, kind: .meal, source: phone, start: 1_000, utcOffset: -18_000, carbs: 45,
                  protein: 20, fat: 10, note: "pasta", provenance: Provenance(file: f, line: 7)),
            Event(subject: Fixture.subject, kind: .insulin, subtype: Symbol("Fast-Acting"), source: phone, start: 1_000,
                  utcOffset: -18_000, insulin: 4.5, provenance: Provenance(file: f, line: 8)),
            Event(subject: Fixture.subject, kind: .exercise, subtype: Symbol("Running"), source: phone, start: 2_000,
                  end: 3_800, utcOffset: -18_000, intensity: Symbol("heavy"), flags: [.userEntered],
                  provenance: Provenance(file: f, line: 9)),
        ]
    }

    @Test func writesEventsAndUpsertsThem() throws {
        let dir = try TempDirectory()
        var h = SinkHarness(dir)
        let file = dir.path("log.csv")
        let input = Fixture.input(file, rows: 3, events: 3)
        try h.run([RecordBatch(events: Self.events(file: file))], inputs: [input])

        let select = """
            SELECT kind, subtype, source, start, end, utc_offset, carbs_g, protein_g, fat_g, insulin_u, intensity, note,
                   flags, import_id, line FROM events ORDER BY start, kind
            """
        let expected: [[String?]] = [
            ["insulin", "Fast-Acting", "phone", "1000", "1000", "-18000", nil, nil, nil, "4.5", nil, nil, "0", "1", "8"],
            ["meal", "", "phone", "1000", "1000", "-18000", "45.0", "20.0", "10.0", nil, nil, "pasta", "0", "1", "7"],
            ["exercise", "Running", "phone", "2000", "3800", "-18000", nil, nil, nil, nil, "heavy", nil, "4", "1", "9"],
        ]
        #expect(try RawSQLite.rows(h.dbPath, select) == expected)
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "3")

        // Same events again: nothing changes.
        h.startedAt += 10
        try h.run([RecordBatch(events: Self.events(file: file))], inputs: [input])
        #expect(try RawSQLite.rows(h.dbPath, select) == expected)
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "0")

        // A corrected note updates the meal's row in place.
        var corrected = Self.events(file: file)
        corrected[0].note = nil
        h.startedAt += 10
        try h.run([RecordBatch(events: corrected)], inputs: [input])
        #expect(try RawSQLite.count(h.dbPath, "events") == 3)
        #expect(try RawSQLite.rows(h.dbPath, "SELECT carbs_g, note FROM events WHERE kind = 'meal'") == [["45.0", nil]])
        #expect(try RawSQLite.value(h.dbPath, "SELECT new_rows FROM imports") == "1")

        // A second dose in the same minute is a second event, not an overwrite (the amount is in the key).
        var second = Self.events(file: file)
        second[1].insulin = 2
        h.startedAt += 10
        try h.run([RecordBatch(events: [second[1]])], inputs: [input])
        #expect(try RawSQLite.value(h.dbPath, "SELECT count(*) FROM events WHERE kind = 'insulin'") == "2")
    }

    static func summary(day: Int64, mean: Double, bands: [(String, Double)]) -> DailySummary {
        DailySummary(subject: Fixture.subject, metric: Fixture.glucose, day: day, unit: Fixture.mgdl, count: 288, min: 55,
                     max: 260, mean: mean, sd: nil, bandPercents: bands.map { BandShare(band: Symbol($0.0), percent: $0.1) },
                     hypo: true, hyper: false, carbsGrams: 180, insulinUnits: 22.5, exerciseMinutes: 30, illness: false,
                     stress: true)
    }

    @Test func writesDailySummariesAndReplacesTheirBands() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let day = CivilDate.days(year: 2024, month: 2, day: 29)
        try h.reaggregate([RecordBatch(dailySummaries: [
            Self.summary(day: day, mean: 140, bands: [("low", 5), ("in range", 80), ("high", 15)]),
        ])])
        #expect(try RawSQLite.rows(h.dbPath, "SELECT * FROM daily_summaries") == [
            ["alice", "2024-02-29", "glucose", "mg/dL", "288", "55.0", "260.0", "140.0", nil, "1", "0", "180.0", "22.5",
             "30.0", "0", "1", nil, nil],
        ])
        #expect(try RawSQLite.count(h.dbPath, "daily_bands") == 3)

        // Re-aggregated with other bands: the day's row is updated and its bands replaced.
        try h.reaggregate([RecordBatch(dailySummaries: [
            Self.summary(day: day, mean: 150, bands: [("in range", 70), ("very high", 30)]),
        ])])
        #expect(try RawSQLite.count(h.dbPath, "daily_summaries") == 1)
        #expect(try RawSQLite.value(h.dbPath, "SELECT mean FROM daily_summaries") == "150.0")
        #expect(try RawSQLite.rows(h.dbPath, "SELECT day, band, percent FROM daily_bands ORDER BY band") == [
            ["2024-02-29", "in range", "70.0"], ["2024-02-29", "very high", "30.0"],
        ])
        #expect(try RawSQLite.rows(h.dbPath, "SELECT low, avg, high, hypo, exercise, stress, favourite FROM day_log") == [
            ["55.0", "150.0", "260.0", "1", "1", "1", "0"],
        ])
    }
}
