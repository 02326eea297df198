/// Where a record came from: the input file (interned) and the 1-based line, or for binary
/// inputs the byte offset. Kept on every record so any value can be traced back to its row.
public struct Provenance: Hashable, Sendable {
    public var file: Symbol
    public var line: Int64
    public init(file: Symbol, line: Int64) {
        self.file = file
        self.line = line
    }
    public static let none = Provenance(file: .empty, line: 0)
}

/// Per-record flags. Stored as an INTEGER bit set in SQLite; the bits are documented in docs/schema.md.
public struct RecordFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The sensor reported "Low": the value is the sensor's lower limit, the truth is below it.
    public static let belowSensorRange = RecordFlags(rawValue: 1 << 0)
    /// The sensor reported "High": the value is the sensor's upper limit, the truth is above it.
    public static let aboveSensorRange = RecordFlags(rawValue: 1 << 1)
    /// Entered by hand (finger-stick, manual log) rather than measured by the device.
    public static let userEntered = RecordFlags(rawValue: 1 << 2)
    /// The local time occurred twice (DST fall-back); the configured choice was applied.
    public static let ambiguousLocalTime = RecordFlags(rawValue: 1 << 3)
    /// The local time does not exist (DST spring-forward gap); it was moved past the gap.
    public static let nonexistentLocalTime = RecordFlags(rawValue: 1 << 4)
    /// A calibration reading (finger-stick used to calibrate the sensor).
    public static let calibration = RecordFlags(rawValue: 1 << 5)
    /// Converted from mmol/L and rounded to a whole mg/dL.
    public static let convertedFromMmol = RecordFlags(rawValue: 1 << 6)
    /// Value produced by interpolation (resampling), not measured.
    public static let interpolated = RecordFlags(rawValue: 1 << 7)
    /// An episode still running: started but not ended yet (its `end` equals its start until then).
    public static let openEnded = RecordFlags(rawValue: 1 << 8)
    /// A basal rate over a span that was the pump's schedule (not a temp, automated or suspended rate).
    public static let scheduledRate = RecordFlags(rawValue: 1 << 9)
    /// Storage only, never set by a source: a stored treatment event that an upload of its
    /// identity is about to replace (`TreatmentReplacement` sets it before the upload's import and
    /// deletes the events still carrying it after). A high bit, far from the flags records carry.
    public static let replacementPending = RecordFlags(rawValue: 1 << 30)
}
