/// A PostgreSQL failure: what was being done, the server's or libpq's message (passwords removed,
/// `PostgresURL.redact`) and, when there is one, the SQLSTATE code.
public struct PGError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var sqlState: String?
    public init(message: String, sqlState: String? = nil) {
        self.message = message
        self.sqlState = sqlState
    }
    public var description: String { message }
}
