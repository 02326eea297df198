/// One toothbrushing session as the history view reads it, from any origin: a motion session of the
/// serial stream, or an Apple Health toothbrushing record stored as a measurement or an event (`kind`).
public struct BrushingSession: Sendable, Hashable {
    /// UTC epoch seconds.
    public var start: Int64
    public var end: Int64
    public var utcOffset: Int32
    /// Mean movement (g); nil for sessions that carry none (Apple Health toothbrushing records).
    public var average: Double?
    public var accomplishment: Double?
    /// The stream's device source, or the Apple Health source.
    public var origin: String
    /// motion, measurement or event: the table the session comes from.
    public var kind: String

    public init(start: Int64, end: Int64, utcOffset: Int32, average: Double?, accomplishment: Double?, origin: String,
                kind: String = "motion") {
        self.start = start
        self.end = end
        self.utcOffset = utcOffset
        self.average = average
        self.accomplishment = accomplishment
        self.origin = origin
        self.kind = kind
    }

    public var localDay: Int64 { LocalDays.day(start, utcOffset) }
}
