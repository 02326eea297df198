import HealthPipeCore
import SQLiteStore
import Testing

/// The sqlite-source's order: subjects, then each subject's metrics, each metric's sources merged by
/// time (at one time: sources by name, then end and value), grid rows left out — also when sources
/// are read a week at a time and when a source holds nothing but grid rows.
@Suite struct SQLiteSourceOrderTests {
    @Test func sourcesAreMergedByTimeAcrossWeeksAndGridRowsAreSkipped() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let u = Symbol("mg/dL")
        func m(_ subject: String, _ metric: String, _ source: String, _ start: Int64, _ value: Double, end: Int64? = nil,
               flags: RecordFlags = []) -> HealthPipeCore.Measurement {
            .init(subject: Symbol(subject), metric: Symbol(metric), source: Symbol(source), start: start, end: end, utcOffset: 0,
                  value: value, unit: u, flags: flags)
        }
        let day: Int64 = 86_400
        var rows: [HealthPipeCore.Measurement] = []
        // Three sources of one metric over ten weeks with a month-long hole; equal times across
        // sources and within one; a source of grid rows only, and grid rows among the readings.
        for i in 0..<400 {
            let t = 1_700_000_000 + Int64(i) * 3 * 3600 + (i >= 200 ? 30 * day : 0)
            if i % 3 != 0 { rows.append(m("s", "glucose", "b-meter", t, Double(i))) }
            if i % 2 == 0 { rows.append(m("s", "glucose", "a-cgm", t, Double(i) + 0.5)) }
            if i % 7 == 0 { rows.append(m("s", "glucose", "a-cgm", t, Double(i) + 0.25, end: t + 60)) }
            rows.append(m("s", "glucose", "resampled", t + 150, 1, flags: .interpolated))
            if i % 5 == 0 { rows.append(m("s", "glucose", "b-meter", t + 1, 2, flags: .interpolated)) }
        }
        rows.append(m("s", "heart_rate", "watch", 1_700_000_000, 60))
        rows.append(m("t", "glucose", "cgm", 1_600_000_000, 90))
        rows.append(m("t", "glucose", "resampled", 1_600_000_000, 90, flags: .interpolated))
        try h.run([RecordBatch(measurements: rows)], inputs: [])

        var got: [[String?]] = []
        let source = SQLiteSource(path: h.dbPath, batchSize: 100)
        try source.run(context: h.context()) { batch in
            got += batch.measurements.map { [$0.subject.text, $0.metric.text, $0.source.text, String($0.start), String($0.end), String($0.value)] }
        }
        let expected = try RawSQLite.rows(h.dbPath, """
            SELECT subject, metric, source, start, end, value FROM measurements WHERE flags & 128 = 0
            ORDER BY subject, metric, start, source, end, value
            """)
        #expect(got.count == expected.count)
        #expect(got == expected)
    }
}
