/// One measured value: a glucose reading, a heart rate, a temperature.
/// `value` is always in the metric's canonical unit (see `CanonicalUnits`).
public struct Measurement: Hashable, Sendable {
    public var subject: Symbol
    public var metric: Symbol
    public var source: Symbol
    /// UTC epoch seconds. `end == start` for point readings.
    public var start: Int64
    public var end: Int64
    /// Local offset from UTC in seconds at the time of the reading; daily buckets use the local day.
    public var utcOffset: Int32
    public var value: Double
    public var unit: Symbol
    public var flags: RecordFlags
    /// Band label set by `classify` (empty until then).
    public var band: Symbol
    public var provenance: Provenance
    /// The device that recorded it (see `DeviceText`); empty when the source does not say.
    public var device: Symbol
    /// Extra facts the source keeps as a JSON object text (Apple MetadataEntry children).
    public var metadata: String?

    public init(subject: Symbol, metric: Symbol, source: Symbol, start: Int64, end: Int64? = nil,
                utcOffset: Int32, value: Double, unit: Symbol, flags: RecordFlags = [],
                band: Symbol = .empty, provenance: Provenance = .none, device: Symbol = .empty,
                metadata: String? = nil) {
        self.subject = subject
        self.metric = metric
        self.source = source
        self.start = start
        self.end = end ?? start
        self.utcOffset = utcOffset
        self.value = value
        self.unit = unit
        self.flags = flags
        self.band = band
        self.provenance = provenance
        self.device = device
        self.metadata = metadata
    }

    /// Natural key: re-importing the same reading must hit the same row.
    public var naturalKey: MeasurementKey {
        MeasurementKey(subject: subject, metric: metric, source: source, start: start, end: end)
    }
    /// Days since 1970-01-01 in local time.
    public var localDay: Int64 { LocalDays.day(start, utcOffset) }
}

public struct MeasurementKey: Hashable, Sendable {
    public var subject: Symbol, metric: Symbol, source: Symbol, start: Int64, end: Int64
}
