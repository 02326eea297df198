/// A health report (seed 004): a moment, two or more health values each with an importance 1–5
/// ("how much attention it needs"), and an optional note. Its values travel beside it as
/// measurements of their metric (source `report`), so daily summaries, charts and metrics see
/// them; the report record says which measurements belong to the id and carries the importance.
public struct HealthReport: Hashable, Sendable {
    public struct Value: Hashable, Sendable {
        public var metric: Symbol
        /// In the metric's canonical unit (`HealthValues`).
        public var value: Double
        public var unit: Symbol
        /// 1 (routine) … 5 (needs attention).
        public var importance: Int
        public var flags: RecordFlags

        public init(metric: Symbol, value: Double, unit: Symbol, importance: Int, flags: RecordFlags = []) {
            self.metric = metric
            self.value = value
            self.unit = unit
            self.importance = importance
            self.flags = flags
        }
    }

    /// The measurement source of every report value.
    public static let source = Symbol("report")
    public static let importanceRange = 1...5
    /// A report holds at least this many values.
    public static let minimumValues = 2

    /// Stable per subject: what `reports edit` and `reports delete` take.
    public var id: String
    public var subject: Symbol
    /// UTC epoch seconds and the local offset at that moment.
    public var start: Int64
    public var utcOffset: Int32
    public var values: [Value]
    public var note: String?
    public var provenance: Provenance

    public init(id: String, subject: Symbol, start: Int64, utcOffset: Int32, values: [Value], note: String? = nil,
                provenance: Provenance = .none) {
        self.id = id
        self.subject = subject
        self.start = start
        self.utcOffset = utcOffset
        self.values = values
        self.note = note
        self.provenance = provenance
    }

    public var localDay: Int64 { LocalDays.day(start, utcOffset) }

    /// The value rows as the measurements they also are.
    public var measurements: [Measurement] {
        values.map { v in
            Measurement(subject: subject, metric: v.metric, source: Self.source, start: start, utcOffset: utcOffset,
                        value: v.value, unit: v.unit, flags: v.flags.union(.userEntered), provenance: provenance)
        }
    }
}
