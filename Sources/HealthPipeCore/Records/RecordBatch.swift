/// The unit of work between stages: records move in batches (thousands at a time), never one by one.
/// Arrays are copy-on-write, so fanning a batch out to several consumers copies nothing.
public struct RecordBatch: Sendable {
    public var measurements: [Measurement] = []
    public var events: [Event] = []
    public var dailySummaries: [DailySummary] = []
    /// Subject characteristics (Apple Health `Me`): few, carried along with the other records.
    public var profiles: [SubjectProfile] = []
    public var metricSets: [MetricSet] = []
    public var forecasts: [ForecastPoint] = []
    public var alerts: [Alert] = []
    // Motion streams (plugins/SerialIMU, Analytics/Sessions).
    public var motionSamples: [MotionSample] = []
    public var sessionProgress: [SessionProgress] = []
    public var motionSessions: [MotionSession] = []
    // Apple Health side files: workout routes and ECG recordings (few, each carrying its points).
    public var routes: [WorkoutRoute] = []
    public var electrocardiograms: [Electrocardiogram] = []
    // The personal health log (seed 004, seeds 000/002): reports and manual entries with their ids,
    // and the daily summary report derived from the stored reports.
    public var reports: [HealthReport] = []
    public var entries: [ManualEntry] = []
    public var reportDays: [ReportDay] = []

    public init(measurements: [Measurement] = [], events: [Event] = [], dailySummaries: [DailySummary] = [],
                metricSets: [MetricSet] = [], forecasts: [ForecastPoint] = [], alerts: [Alert] = []) {
        self.measurements = measurements
        self.events = events
        self.dailySummaries = dailySummaries
        self.metricSets = metricSets
        self.forecasts = forecasts
        self.alerts = alerts
    }

    public init(motionSamples: [MotionSample], sessionProgress: [SessionProgress] = [], motionSessions: [MotionSession] = []) {
        self.motionSamples = motionSamples
        self.sessionProgress = sessionProgress
        self.motionSessions = motionSessions
    }

    public var count: Int {
        measurements.count + events.count + dailySummaries.count + profiles.count + metricSets.count + forecasts.count
            + alerts.count + motionSamples.count + sessionProgress.count + motionSessions.count
            + routes.count + electrocardiograms.count + reports.count + entries.count + reportDays.count
    }
    public var isEmpty: Bool { count == 0 }

    /// The kinds of record this batch holds.
    public var kinds: RecordKinds {
        var k: RecordKinds = []
        if !measurements.isEmpty { k.insert(.measurements) }
        if !events.isEmpty { k.insert(.events) }
        if !dailySummaries.isEmpty { k.insert(.dailySummaries) }
        if !metricSets.isEmpty { k.insert(.metricSets) }
        if !forecasts.isEmpty { k.insert(.forecasts) }
        if !alerts.isEmpty { k.insert(.alerts) }
        if !motionSamples.isEmpty { k.insert(.motionSamples) }
        if !sessionProgress.isEmpty { k.insert(.sessionProgress) }
        if !motionSessions.isEmpty { k.insert(.motionSessions) }
        if !routes.isEmpty { k.insert(.routes) }
        if !electrocardiograms.isEmpty { k.insert(.electrocardiograms) }
        if !reports.isEmpty { k.insert(.reports) }
        if !entries.isEmpty { k.insert(.entries) }
        if !reportDays.isEmpty { k.insert(.reportDays) }
        return k
    }

    public mutating func reserve(_ n: Int) { measurements.reserveCapacity(n) }
    public mutating func removeAll() {
        measurements.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        dailySummaries.removeAll(keepingCapacity: true)
        profiles.removeAll(keepingCapacity: true)
        metricSets.removeAll(keepingCapacity: true)
        forecasts.removeAll(keepingCapacity: true)
        alerts.removeAll(keepingCapacity: true)
        motionSamples.removeAll(keepingCapacity: true)
        sessionProgress.removeAll(keepingCapacity: true)
        motionSessions.removeAll(keepingCapacity: true)
        routes.removeAll(keepingCapacity: true)
        electrocardiograms.removeAll(keepingCapacity: true)
        reports.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        reportDays.removeAll(keepingCapacity: true)
    }
}

/// What a stage emits or accepts: the graph checker refuses an edge whose producer emits nothing
/// the consumer can take.
public struct RecordKinds: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let measurements = RecordKinds(rawValue: 1 << 0)
    public static let events = RecordKinds(rawValue: 1 << 1)
    public static let dailySummaries = RecordKinds(rawValue: 1 << 2)
    public static let metricSets = RecordKinds(rawValue: 1 << 3)
    public static let forecasts = RecordKinds(rawValue: 1 << 4)
    public static let alerts = RecordKinds(rawValue: 1 << 5)
    public static let motionSamples = RecordKinds(rawValue: 1 << 6)
    public static let sessionProgress = RecordKinds(rawValue: 1 << 7)
    public static let motionSessions = RecordKinds(rawValue: 1 << 8)
    public static let routes = RecordKinds(rawValue: 1 << 9)
    public static let electrocardiograms = RecordKinds(rawValue: 1 << 10)
    public static let reports = RecordKinds(rawValue: 1 << 11)
    public static let entries = RecordKinds(rawValue: 1 << 12)
    public static let reportDays = RecordKinds(rawValue: 1 << 13)
    /// What an export says of its subject (Apple Health `Me`, a Nightscout profile).
    public static let profiles = RecordKinds(rawValue: 1 << 14)
    /// Every kind an NDJSON-style sink writes (motion samples and live progress are stream-only).
    public static let all: RecordKinds = [.measurements, .events, .dailySummaries, .metricSets, .forecasts, .alerts, .profiles]

    public var description: String {
        var names: [String] = []
        if contains(.measurements) { names.append("measurements") }
        if contains(.events) { names.append("events") }
        if contains(.dailySummaries) { names.append("daily summaries") }
        if contains(.metricSets) { names.append("metric sets") }
        if contains(.forecasts) { names.append("forecasts") }
        if contains(.alerts) { names.append("alerts") }
        if contains(.profiles) { names.append("subject profiles") }
        if contains(.motionSamples) { names.append("motion samples") }
        if contains(.sessionProgress) { names.append("session progress") }
        if contains(.motionSessions) { names.append("motion sessions") }
        if contains(.routes) { names.append("workout routes") }
        if contains(.electrocardiograms) { names.append("electrocardiograms") }
        if contains(.reports) { names.append("health reports") }
        if contains(.entries) { names.append("manual entries") }
        if contains(.reportDays) { names.append("daily report summaries") }
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }
}
