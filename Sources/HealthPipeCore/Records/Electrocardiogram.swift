/// One ECG recording (Apple Watch, 30 s at ~512 Hz, lead I): the voltage trace with its
/// classification and recording facts.
public struct Electrocardiogram: Hashable, Sendable {
    public var subject: Symbol
    public var source: Symbol
    /// UTC epoch seconds of the recording's start.
    public var start: Int64
    public var utcOffset: Int32
    /// `Sinus Rhythm`, `Atrial Fibrillation`, `Inconclusive`…, as written.
    public var classification: String?
    public var symptoms: String?
    public var averageHeartRate: Double?
    public var samplingHz: Double
    public var lead: String?
    /// Voltages in microvolts, in recording order.
    public var microvolts: [Float]
    /// The file's other header lines (software version…) as a JSON object text.
    public var metadata: String?
    public var device: Symbol
    public var provenance: Provenance

    public init(subject: Symbol, source: Symbol, start: Int64, utcOffset: Int32, classification: String?, symptoms: String?,
                averageHeartRate: Double?, samplingHz: Double, lead: String?, microvolts: [Float], metadata: String?,
                device: Symbol = .empty, provenance: Provenance = .none) {
        self.subject = subject
        self.source = source
        self.start = start
        self.utcOffset = utcOffset
        self.classification = classification
        self.symptoms = symptoms
        self.averageHeartRate = averageHeartRate
        self.samplingHz = samplingHz
        self.lead = lead
        self.microvolts = microvolts
        self.metadata = metadata
        self.device = device
        self.provenance = provenance
    }

    /// End of the recording: start + samples / rate.
    public var end: Int64 { samplingHz > 0 ? start + Int64((Double(microvolts.count) / samplingHz).rounded()) : start }
}
