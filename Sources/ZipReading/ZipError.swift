/// What is wrong with a zip, in words a user can act on: "truncated" when data it promises is missing
/// (a cut-off download or copy), "corrupt" when its structure or compressed data is damaged.
public struct ZipError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable { case truncated, corrupt, unsupported, unreadable }
    public let kind: Kind
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    static func truncated(_ what: String) -> ZipError {
        ZipError(.truncated, "the zip archive is truncated: \(what); an interrupted download or copy?")
    }

    static func corrupt(_ what: String) -> ZipError { ZipError(.corrupt, "the zip archive is corrupt: \(what)") }
}
