/// Input echoed back to the user (stderr, the quarantine file, error messages) is capped, so a
/// 10 MB cell or YAML line costs a line of output, not 10 MB of it; control characters are made
/// visible so a terminal is never driven by the file's bytes.
public enum EchoText {
    /// The quarantine file keeps up to this many bytes of a bad row's raw text.
    public static let rawLimit = 4096
    /// Messages quote up to this many characters of a cell or line.
    public static let quoteLimit = 200

    /// `text` cut to at most `limit` characters, with `… (N more bytes)` when cut; control
    /// characters other than tab are shown as `\u{…}`.
    public static func cap(_ text: some StringProtocol, to limit: Int = quoteLimit) -> String {
        var out = ""
        var count = 0
        var index = text.startIndex
        while index < text.endIndex, count < limit {
            let c = text[index]
            if let ascii = c.asciiValue, ascii < 0x20 && ascii != 0x09 || ascii == 0x7F {
                out += "\\u{\(String(ascii, radix: 16))}"
            } else {
                out.append(c)
            }
            count += 1
            index = text.index(after: index)
        }
        if index < text.endIndex {
            out += "… (\(text[index...].utf8.count) more bytes)"
        }
        return out
    }

    /// Bytes (a cell, a line) quoted in a message: like `cap`, without decoding more than needed.
    public static func quote(_ bytes: some Collection<UInt8>, to limit: Int = quoteLimit) -> String {
        guard bytes.count > limit else { return cap(String(decoding: bytes, as: UTF8.self), to: limit) }
        return cap(String(decoding: bytes.prefix(limit), as: UTF8.self), to: limit) + "… (\(bytes.count) bytes in all)"
    }

    /// Raw bytes of a bad row or element as text for the quarantine file, cut at `rawLimit` bytes.
    public static func raw(_ bytes: some Collection<UInt8>, limit: Int = rawLimit) -> String {
        guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.prefix(limit), as: UTF8.self) + "… (\(bytes.count - limit) more bytes)"
    }
}
