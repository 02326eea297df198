/// What happened rather than what was measured: meals, exercise, insulin, illness or stress
/// episodes, notes, device alerts. Quantities are in canonical units (g, U, minutes).
public struct Event: Hashable, Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case meal, exercise, insulin, episode, note, alert, device
    }

    public var subject: Symbol
    public var kind: Kind
    /// Kind-specific name: `Fast-Acting`, `bolus`, `Illness`, `Stress`, `Running`, an alert name…
    /// Never nil in storage: "" when absent, so natural keys compare equal.
    public var subtype: Symbol
    public var source: Symbol
    public var start: Int64
    public var end: Int64
    public var utcOffset: Int32
    public var carbs: Double?
    public var protein: Double?
    public var fat: Double?
    public var insulin: Double?
    /// `light`, `medium`, `heavy` for exercise; empty otherwise.
    public var intensity: Symbol
    public var note: String?
    public var flags: RecordFlags
    public var provenance: Provenance
    /// The device that recorded it (see `DeviceText`); empty when the source does not say.
    public var device: Symbol
    /// Extra facts the source keeps as a JSON object text (Apple MetadataEntry children).
    public var metadata: String?

    public init(subject: Symbol, kind: Kind, subtype: Symbol = .empty, source: Symbol, start: Int64,
                end: Int64? = nil, utcOffset: Int32, carbs: Double? = nil, protein: Double? = nil,
                fat: Double? = nil, insulin: Double? = nil, intensity: Symbol = .empty, note: String? = nil,
                flags: RecordFlags = [], provenance: Provenance = .none, device: Symbol = .empty,
                metadata: String? = nil) {
        self.subject = subject
        self.kind = kind
        self.subtype = subtype
        self.source = source
        self.start = start
        self.end = end ?? start
        self.utcOffset = utcOffset
        self.carbs = carbs
        self.protein = protein
        self.fat = fat
        self.insulin = insulin
        self.intensity = intensity
        self.note = note
        self.flags = flags
        self.provenance = provenance
        self.device = device
        self.metadata = metadata
    }

    public var durationSeconds: Int64 { end - start }
    public var localDay: Int64 { LocalDays.day(start, utcOffset) }
}
