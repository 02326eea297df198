import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// The `reports` step: the daily summary report, the reminder alerts and the threshold alerts,
/// exact whatever the order reports arrive in.
@Suite struct ReportsTransformTests {
    let ctx = StageContext.forTesting("reports", name: "r")
    static let subject = Symbol("me")
    static let temperature = Symbol("body_temperature")
    static let hour: Int64 = 3600

    /// A report on local day `day` (2024-03-01 + day) at `hour`, UTC+1.
    static func report(day: Int64, hour: Int64, temp: Double, importance: Int = 4, id: String? = nil) -> HealthReport {
        let start = (CivilDate.days(fromISO: "2024-03-01")! + day) * 86_400 + hour * 3600 - 3600
        return HealthReport(id: id ?? "d\(day)h\(hour)", subject: subject, start: start, utcOffset: 3600, values: [
            .init(metric: temperature, value: temp, unit: Symbol("degC"), importance: importance),
            .init(metric: Symbol("pain"), value: 2, unit: Symbol("score"), importance: 1),
        ])
    }

    func run(_ reports: [HealthReport], _ settings: ReportAlertSettings = .init()) throws -> RecordBatch {
        let t = ReportsTransform(settings: settings)
        var out = RecordBatch()
        try t.process(RecordBatch(), context: ctx) { _ in }
        var batch = RecordBatch()
        batch.reports = reports
        try t.process(batch, context: ctx) { _ in }
        try t.finish(context: ctx) { out.reportDays += $0.reportDays; out.alerts += $0.alerts }
        return out
    }

    @Test func theDailySummaryIsTheAverageOfTheDaysReports() throws {
        let out = try run([Self.report(day: 0, hour: 8, temp: 37.0, importance: 2), Self.report(day: 0, hour: 13, temp: 38.0, importance: 5),
                           Self.report(day: 0, hour: 20, temp: 37.6), Self.report(day: 1, hour: 8, temp: 36.9)])
        let t = try #require(out.reportDays.first { $0.metric == Self.temperature && $0.day == CivilDate.days(fromISO: "2024-03-01") })
        #expect(t.reports == 3 && t.count == 3 && t.min == 37.0 && t.max == 38.0 && t.maxImportance == 5)
        #expect(abs(t.mean - 37.533333333333333) < 1e-12)
        #expect(out.reportDays.count == 4)  // two days × (temperature, pain)
    }

    @Test func aReportSentAgainUnderItsIdCountsOnce() throws {
        let first = Self.report(day: 0, hour: 8, temp: 39.0, id: "a")
        let corrected = Self.report(day: 0, hour: 8, temp: 37.0, id: "a")
        let out = try run([first, Self.report(day: 0, hour: 20, temp: 37.0), corrected])
        #expect(out.reportDays.first { $0.metric == Self.temperature }?.mean == 37.0)
        // Another id at the same instant takes its place, as in the store.
        let other = try run([first, Self.report(day: 0, hour: 8, temp: 38.0, id: "b")])
        #expect(other.reportDays.first { $0.metric == Self.temperature }.map { ($0.count, $0.mean) }! == (1, 38.0))
    }

    static let above = ReportAlertSettings(thresholds: [.init(metric: temperature, above: true, limit: 37.5, unit: Symbol("degC"))])

    @Test func crossingsInARowAreOneAlertAndAReturnEndsIt() throws {
        // Mornings 37.0 for days 0–3, then 38.2: the 7-day average first exceeds 37.5 on day 6.
        var reports = (0..<10).map { Self.report(day: $0, hour: 8, temp: $0 >= 4 ? 38.2 : 37.0) }
        reports += (0..<10).map { Self.report(day: $0, hour: 21, temp: 39.5, importance: 3) }  // not watched
        let alerts = try run(reports.shuffled(), Self.above).alerts
        #expect(alerts.count == 1)
        let a = try #require(alerts.first)
        #expect(a.kind == .averageAbove && a.start == reports[6].start && a.end == reports[9].start && a.threshold == 37.5)
        #expect(abs(a.value - (37.0 + 6 * 38.2) / 7) < 1e-9)  // days 3–9, the highest average

        // Back below the limit ends it; a later crossing is a second alert.
        var wave = (0..<3).map { Self.report(day: $0, hour: 8, temp: 38.0) }
        wave += (3..<12).map { Self.report(day: $0, hour: 8, temp: 36.0) }
        wave += (12..<20).map { Self.report(day: $0, hour: 8, temp: 39.0) }
        let two = try run(wave, Self.above).alerts
        #expect(two.count == 2 && two.map(\.start) == [wave[0].start, wave[15].start])
    }

    @Test func aBelowThresholdWatchesLowAverages() throws {
        let s = ReportAlertSettings(thresholds: [.init(metric: Self.temperature, above: false, limit: 36.0, unit: Symbol("degC"), days: 2,
                                                       minImportance: 2)])
        let alerts = try run([Self.report(day: 0, hour: 8, temp: 36.5, importance: 2), Self.report(day: 1, hour: 8, temp: 35.0, importance: 2),
                              Self.report(day: 2, hour: 8, temp: 35.2, importance: 1)], s).alerts
        #expect(alerts.map(\.kind) == [.averageBelow] && alerts[0].value == 35.75)
    }

    @Test func reminderAlertsMarkLateAndMissedDaysBetweenTheFirstAndLastReport() throws {
        let s = ReportAlertSettings(reminderMinute: 20 * 60)
        let alerts = try run([Self.report(day: 0, hour: 8, temp: 37), Self.report(day: 1, hour: 21, temp: 37),
                              Self.report(day: 3, hour: 19, temp: 37)], s).alerts
        let day0 = CivilDate.days(fromISO: "2024-03-01")!
        // Day 1: late (20:00 → 21:00); day 2: missed (20:00 → midnight); days 0 and 3 on time.
        #expect(alerts.map { CivilDate.floorDiv($0.start + Int64($0.utcOffset), 86_400) - day0 } == [1, 2])
        #expect(alerts[0].end - alerts[0].start == Self.hour && alerts[0].value == 1)
        #expect(alerts[1].end - alerts[1].start == 4 * Self.hour && alerts[1].value == 0)
        #expect(alerts.allSatisfy { $0.kind == .reminder && $0.threshold == 1200 })
    }

    @Test func theDefaultFingerprintIsTheOneSchemaNineStores() {
        #expect(ReportsTransform.fingerprint(ReportAlertSettings()) == "reports reminder=none thresholds=[]")
        #expect(ReportsTransform(settings: Self.above).fingerprint == "reports reminder=none thresholds=[body_temperature>37.5/7d/i4]")
    }
}
