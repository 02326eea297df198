/// A configuration error that points at the offending text: `file:line:column: message`, the
/// source line with a caret, and the nearest valid name for a misspelling.
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    /// The source line the error points into (empty when unknown).
    public var excerpt: String
    public var suggestion: String?

    public init(file: String, line: Int, column: Int, message: String, excerpt: String = "", suggestion: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.excerpt = excerpt
        self.suggestion = suggestion
    }

    /// `file:line:column`, or just the file (a command's name) when there is no position.
    public var location: String { line == 0 && column == 0 ? file : "\(file):\(line):\(column)" }

    /// The message, excerpt and suggestion are capped (`EchoText`): a 10 MB YAML line is quoted by
    /// its start, not printed whole.
    public var description: String {
        var s = "\(location): error: \(EchoText.cap(message, to: EchoText.quoteLimit * 2))"
        if let suggestion { s += " (did you mean '\(EchoText.cap(suggestion))'?)" }
        if !excerpt.isEmpty {
            let shown = EchoText.cap(excerpt)
            s += "\n    " + shown
            if column - 1 <= EchoText.quoteLimit { s += "\n    " + String(repeating: " ", count: max(0, column - 1)) + "^" }
        }
        return s
    }
}

/// Several config errors found in one pass, so a user fixes them all at once.
public struct ConfigErrors: Error, CustomStringConvertible, Sendable {
    public var errors: [ConfigError]
    public init(_ errors: [ConfigError]) { self.errors = errors }
    public var description: String { errors.map(\.description).joined(separator: "\n") }

    /// Throws what a pass collected: one error as itself, several together; nothing when none.
    public static func throwIfAny(_ errors: [ConfigError]) throws {
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 { throw ConfigErrors(errors) }
    }
}
