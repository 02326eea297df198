/// A JSON request body's text: its bytes after one optional UTF-8 byte-order mark (EF BB BF), which
/// some uploaders write. Every reader of a JSON body starts here (`NightscoutBody`, the credentials
/// `AccessGuard` reads from a body), so a body with a mark reads as the same body without one.
enum JSONBodyBytes {
    /// The index at which the JSON text of `bytes` starts.
    static func start(of bytes: [UInt8]) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The JSON text of `bytes`, without the mark.
    static func text(_ bytes: [UInt8]) -> ArraySlice<UInt8> { bytes[start(of: bytes)...] }
}
