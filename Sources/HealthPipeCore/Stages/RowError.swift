/// A row that could not be read: where it is, why, and its raw text.
public struct RowError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int64
    public var reason: String
    public var raw: String

    /// `reason` and `raw` are capped (`EchoText`): a 10 MB cell costs a line in stderr and the
    /// quarantine file, not 10 MB. A source that keeps whole elements passes `EchoText.elementLimit`.
    public init(file: String, line: Int64, reason: String, raw: String, rawLimit: Int = EchoText.rawLimit) {
        self.file = file
        self.line = line
        self.reason = EchoText.cap(reason, to: EchoText.quoteLimit * 2)
        self.raw = raw.utf8.count > rawLimit ? EchoText.raw(Array(raw.utf8), limit: rawLimit) : raw
    }

    public var description: String { "\(file):\(line): \(reason)" }
}

/// A whole input that cannot be read at all (unknown format, unreadable file, missing timezone).
public struct InputError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int64?
    public var reason: String
    public init(file: String, line: Int64? = nil, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }
    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }
}

/// Thrown by `StageContext.reject` under `on_error: fail`.
public struct StageFailure: Error, CustomStringConvertible, Sendable {
    public var stage: String
    public var underlying: String
    public var description: String { "stage '\(stage)' failed: \(underlying)" }
}
