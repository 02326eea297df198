extension DerivationSettings {
    /// One step of the settings as a store keeps them (SQLite's and PostgreSQL's `derivation_settings`
    /// alike): the step, its options as a YAML flow mapping, and the fingerprint of what it computes.
    public struct StoredStep: Equatable, Sendable {
        public var step: String
        public var options: String
        public var fingerprint: String

        public init(step: String, options: String, fingerprint: String) {
            self.step = step
            self.options = options
            self.fingerprint = fingerprint
        }
    }
}
