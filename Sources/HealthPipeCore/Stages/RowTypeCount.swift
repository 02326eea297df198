/// What became of a file's data rows of one type (a `row_type_column` value such as mylife's
/// `Basalrate`): stored (some record came of the row), quarantined with a reason, or skipped
/// (a type the adapter lists as not data, or a row with no value). `known`: the adapter maps or
/// skips the type; rows of an unknown type are quarantined, warned about and set the exit status.
public struct RowTypeCount: Sendable, Hashable {
    /// As the file writes it; empty for rows of an adapter without row types.
    public var type: String
    public var stored: Int64
    public var quarantined: Int64
    public var skipped: Int64
    public var known: Bool

    public init(type: String, stored: Int64 = 0, quarantined: Int64 = 0, skipped: Int64 = 0, known: Bool = true) {
        self.type = type
        self.stored = stored
        self.quarantined = quarantined
        self.skipped = skipped
        self.known = known
    }

    public var rows: Int64 { stored + quarantined + skipped }
}
