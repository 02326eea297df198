/// A row that could not be read: where it is, why, and its raw text.
public struct RowError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int64
    public var reason: String
    public var raw: String

    public init(file: String, line: Int64, reason: String, raw: String) {
        self.file = file
        self.line = line
        self.reason = reason
        self.raw = raw
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
