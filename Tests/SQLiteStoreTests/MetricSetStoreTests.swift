import Foundation
import HealthPipeCore
import SQLiteStore
import Testing

/// Schema v3's glucose_metrics / glucose_agp tables through the sink, and the measurement reader.
@Suite struct MetricSetStoreTests {
    @Test func metricSetsAreUpsertedAndAGPReplaced() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let agp = [AGPPoint(minuteOfDay: 0, count: 3, p05: 1, p25: 2, p50: 3, p75: 4, p95: 5)]
        let set = MetricSet(subject: Symbol("s"), metric: Symbol("glucose"), unit: Symbol("mg/dL"), firstDay: 19_723, lastDay: 19_736,
                            values: [NamedValue("mean", 120.5), NamedValue("mage_ma", 75), NamedValue("bad", .nan)], agp: agp)
        try h.reaggregate([RecordBatch(metricSets: [set])])
        var again = set
        again.values[0].value = 121
        try h.reaggregate([RecordBatch(metricSets: [again])])
        #expect(try RawSQLite.rows(h.dbPath, "SELECT period_start, period_end, name, value FROM glucose_metrics ORDER BY name")
            .map { $0.compactMap { $0 } } == [["2024-01-01", "2024-01-14", "mage_ma", "75.0"], ["2024-01-01", "2024-01-14", "mean", "121.0"]])
        #expect(try RawSQLite.value(h.dbPath, "SELECT count(*) || ' ' || sum(p50) FROM glucose_agp") == "1 3.0")
    }

    /// A set's values go in multi-row upserts of up to 32 rows: a set of 70 (three statements, the last
    /// of 6 rows) lands whole, and a second write changes exactly the values that differ.
    @Test func largeSetsLandWholeAcrossGroupedUpserts() throws {
        let dir = try TempDirectory()
        let h = SinkHarness(dir)
        let names = (0..<70).map { String(format: "m%02d", $0) }
        let set = MetricSet(subject: Symbol("s"), metric: Symbol("glucose"), unit: Symbol("mg/dL"), firstDay: 19_723, lastDay: 19_723,
                            values: names.enumerated().map { NamedValue($0.element, Double($0.offset)) })
        try h.reaggregate([RecordBatch(metricSets: [set])])
        var again = set
        again.values[0].value = 100
        again.values[69].value = 169
        again.values.append(NamedValue("m70", .infinity))
        try h.reaggregate([RecordBatch(metricSets: [again])])
        let rows = try RawSQLite.rows(h.dbPath, "SELECT name, value FROM glucose_metrics ORDER BY name").map { $0.compactMap { $0 } }
        #expect(rows.count == 70)
        #expect(rows.first == ["m00", "100.0"] && rows.last == ["m69", "169.0"] && rows[33] == ["m33", "33.0"])
    }
}
