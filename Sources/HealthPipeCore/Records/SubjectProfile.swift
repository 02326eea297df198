/// Characteristics of a subject as a device export states them (Apple Health `Me`): one row per
/// subject and source, replaced when a newer export says otherwise.
public struct SubjectProfile: Hashable, Sendable {
    public var subject: Symbol
    /// Which export said it (`apple-health`).
    public var source: Symbol
    /// `YYYY-MM-DD` or nil when not set.
    public var dateOfBirth: String?
    /// `male`, `female`, `other`, or nil when not set.
    public var biologicalSex: String?
    /// `A+`, `O-`…, or nil when not set.
    public var bloodType: String?
    /// `I`…`VI`, or nil when not set.
    public var skinType: String?
    /// Every characteristic as written, as a JSON object text.
    public var attributes: String
    public var provenance: Provenance

    public init(subject: Symbol, source: Symbol, dateOfBirth: String? = nil, biologicalSex: String? = nil,
                bloodType: String? = nil, skinType: String? = nil, attributes: String, provenance: Provenance = .none) {
        self.subject = subject
        self.source = source
        self.dateOfBirth = dateOfBirth
        self.biologicalSex = biologicalSex
        self.bloodType = bloodType
        self.skinType = skinType
        self.attributes = attributes
        self.provenance = provenance
    }
}
