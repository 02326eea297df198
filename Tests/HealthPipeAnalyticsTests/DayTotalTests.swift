import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import HealthPipeAnalytics

/// A day's total of a metric that adds up counts each minute once: the highest-priority source
/// that recorded the minute (a watch, then an iPhone, then other apps; `source_priority` first).
@Suite struct DayTotalTests {
    let ctx = StageContext.forTesting("daily", name: "d", policy: .quarantine)
    let person = Symbol("pat")
    static let watch = "Alex’s Apple\u{00A0}Watch", phone = "Alex’s iPhone", app = "Connect"

    func steps(_ source: String, from start: Int64, minutes: Int64, _ value: Double, metric: String = "step_count") -> Measurement {
        Measurement(subject: person, metric: Symbol(metric), source: Symbol(source), start: start, end: start + minutes * 60,
                    utcOffset: 3600, value: value, unit: Symbol("count"))
    }

    func summaries(_ ms: [Measurement], priority: SourcePriority = .init()) throws -> [DailySummary] {
        let t = DailyTransform(hypoBelow: 72, hyperAbove: 180, sourcePriority: priority)
        try t.process(RecordBatch(measurements: ms), context: ctx) { _ in }
        var out: [DailySummary] = []
        try t.finish(context: ctx) { out += $0.dailySummaries }
        return out
    }

    /// 10:00–10:10: the watch counted 1,000 steps, the phone 900 (10:00–10:10) and 300 more alone
    /// (10:10–10:15), the app 1,100 over 10:00–10:20 (55 a minute). Minutes 10:00–10:09 are the
    /// watch's, 10:10–10:14 the phone's, 10:15–10:19 the app's: 1,000 + 300 + 275.
    @Test func eachMinuteCountsOnceByTheHealthAppsOrder() throws {
        let t0: Int64 = 1_700_000_000 / 3600 * 3600
        let ms = [steps(Self.watch, from: t0, minutes: 10, 1000), steps(Self.phone, from: t0, minutes: 10, 900),
                  steps(Self.phone, from: t0 + 600, minutes: 5, 300), steps(Self.app, from: t0, minutes: 20, 1100)]
        let d = try #require(try summaries(ms).first)
        #expect(d.count == 4 && d.mean == 825)  // mean × count is what all three recorded: 3,300
        #expect(d.total == 1575)
        #expect(d.totalSources == [SourceShare(source: Symbol(Self.watch), amount: 1000),
                                   SourceShare(source: Symbol(Self.phone), amount: 300),
                                   SourceShare(source: Symbol(Self.app), amount: 275)])
    }

    /// `source_priority` puts the listed names first (a name matches a source containing it).
    @Test func listedSourcesComeFirst() throws {
        let t0: Int64 = 1_700_000_000 / 3600 * 3600
        let ms = [steps(Self.watch, from: t0, minutes: 10, 1000), steps(Self.app, from: t0, minutes: 10, 1200)]
        #expect(try summaries(ms).first?.total == 1000)
        #expect(try summaries(ms, priority: SourcePriority(preferred: ["connect"])).first?.total == 1200)
    }

    /// A share of a minute wins the minute: a record covering part of it still counts its share
    /// there; a point record counts whole in its minute; the same source's records add up.
    @Test func partialMinutesAndPointRecords() throws {
        let t0: Int64 = 1_700_000_000 / 3600 * 3600
        let ms = [steps(Self.phone, from: t0 + 30, minutes: 1, 60),  // 30 s in minute 0, 30 s in minute 1
                  steps(Self.app, from: t0 + 60, minutes: 0, 7),  // minute 1: the phone's
                  steps(Self.app, from: t0 + 120, minutes: 0, 5),  // minute 2: the app's alone
                  steps(Self.phone, from: t0 + 90, minutes: 0, 4)]  // minute 1: the phone's again
        let d = try #require(try summaries(ms).first)
        #expect(d.total.map { $0 - 69 } == 0, "\(String(describing: d.total?.bitPattern))")
    }

    /// Levels (heart rate) get no total; durations (sleep minutes) do.
    @Test func onlyMetricsThatAddUpGetATotal() throws {
        let t0: Int64 = 1_700_000_000 / 3600 * 3600
        let hr = Measurement(subject: person, metric: Metrics.heartRate, source: Symbol(Self.watch), start: t0, utcOffset: 0,
                             value: 60, unit: Symbol("count/min"))
        let inBed = [steps("Clock", from: t0, minutes: 60, 60, metric: "sleep_analysis.in_bed"),
                     steps(Self.watch, from: t0 + 1800, minutes: 60, 60, metric: "sleep_analysis.in_bed")]
        let out = try summaries([hr] + inBed)
        #expect(out.first { $0.metric == Metrics.heartRate }?.total == nil)
        // The watch's hour wins its 60 minutes; the clock keeps the 30 before it.
        #expect(out.first { $0.metric.text == "sleep_analysis.in_bed" }?.total == 90)
    }

    /// A database's totals follow one priority: a listed one is part of the step's settings; the
    /// default adds nothing, so settings stored before the option existed still match.
    @Test func aListedPriorityIsPartOfTheSettings() {
        let plain = DailyTransform(hypoBelow: 72, hyperAbove: 180).fingerprint
        let listed = DailyTransform(hypoBelow: 72, hyperAbove: 180, sourcePriority: SourcePriority(preferred: ["Connect"])).fingerprint
        #expect(!plain.contains("source_priority"))
        #expect(listed == plain + " source_priority=[connect]")
    }

    @Test func defaultOrderIsWatchPhoneOtherThenName() {
        let p = SourcePriority()
        let ranked = ["Mi Fit", "iPhone de Ana", "Connect", "…의 Apple\u{00A0}Watch"].sorted { p.rank(of: $0) < p.rank(of: $1) }
        #expect(ranked == ["…의 Apple\u{00A0}Watch", "iPhone de Ana", "Connect", "Mi Fit"])
    }
}
