/// The unit of work between stages: records move in batches (thousands at a time), never one by one.
/// Arrays are copy-on-write, so fanning a batch out to several consumers copies nothing.
public struct RecordBatch: Sendable {
    public var measurements: [Measurement] = []
    public var events: [Event] = []
    public var dailySummaries: [DailySummary] = []
    // Motion streams (plugins/SerialIMU, Analytics/Sessions).
    public var motionSamples: [MotionSample] = []
    public var sessionProgress: [SessionProgress] = []
    public var motionSessions: [MotionSession] = []

    public init(measurements: [Measurement] = [], events: [Event] = [], dailySummaries: [DailySummary] = []) {
        self.measurements = measurements
        self.events = events
        self.dailySummaries = dailySummaries
    }

    public init(motionSamples: [MotionSample], sessionProgress: [SessionProgress] = [], motionSessions: [MotionSession] = []) {
        self.motionSamples = motionSamples
        self.sessionProgress = sessionProgress
        self.motionSessions = motionSessions
    }

    public var count: Int {
        measurements.count + events.count + dailySummaries.count
            + motionSamples.count + sessionProgress.count + motionSessions.count
    }
    public var isEmpty: Bool { count == 0 }

    /// The kinds of record this batch holds.
    public var kinds: RecordKinds {
        var k: RecordKinds = []
        if !measurements.isEmpty { k.insert(.measurements) }
        if !events.isEmpty { k.insert(.events) }
        if !dailySummaries.isEmpty { k.insert(.dailySummaries) }
        if !motionSamples.isEmpty { k.insert(.motionSamples) }
        if !sessionProgress.isEmpty { k.insert(.sessionProgress) }
        if !motionSessions.isEmpty { k.insert(.motionSessions) }
        return k
    }

    public mutating func reserve(_ n: Int) { measurements.reserveCapacity(n) }
    public mutating func removeAll() {
        measurements.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        dailySummaries.removeAll(keepingCapacity: true)
        motionSamples.removeAll(keepingCapacity: true)
        sessionProgress.removeAll(keepingCapacity: true)
        motionSessions.removeAll(keepingCapacity: true)
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
    // Motion bits sit high (1 << 12…) so kinds added by other families never collide with them.
    public static let motionSamples = RecordKinds(rawValue: 1 << 12)
    public static let sessionProgress = RecordKinds(rawValue: 1 << 13)
    public static let motionSessions = RecordKinds(rawValue: 1 << 14)
    public static let all: RecordKinds = [.measurements, .events, .dailySummaries]

    public var description: String {
        var names: [String] = []
        if contains(.measurements) { names.append("measurements") }
        if contains(.events) { names.append("events") }
        if contains(.dailySummaries) { names.append("daily summaries") }
        if contains(.motionSamples) { names.append("motion samples") }
        if contains(.sessionProgress) { names.append("session progress") }
        if contains(.motionSessions) { names.append("motion sessions") }
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }
}
