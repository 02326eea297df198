/// A JSON request body's text: its bytes after one optional UTF-8 byte-order mark (EF BB BF), which
/// some uploaders write. Every reader of a JSON body starts here (`NightscoutBody`, the credentials
/// `AccessGuard` reads from a body), so a body with a mark reads as the same body without one.
enum JSONBodyBytes {
    /// The index at which the JSON text of `bytes` starts.
    static func start<Bytes: Collection>(of bytes: Bytes) -> Bytes.Index where Bytes.Element == UInt8 {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.index(bytes.startIndex, offsetBy: 3) : bytes.startIndex
    }

    /// The JSON text of `bytes`, without the mark (no copy).
    static func text<Bytes: Collection>(_ bytes: Bytes) -> Bytes.SubSequence where Bytes.Element == UInt8 {
        bytes[start(of: bytes)...]
    }
}
