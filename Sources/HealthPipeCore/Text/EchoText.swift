/// Input echoed back to the user (stderr, the quarantine file, error messages) is capped, so a
/// 10 MB cell or YAML line costs a line of output, not 10 MB of it; control characters are made
/// visible so a terminal is never driven by the file's bytes.
public enum EchoText {
    /// The quarantine file keeps up to this many bytes of a bad row's raw text.
    public static let rawLimit = 4096
    /// A rejected element of a structured file (an Apple Health record with its children) is kept
    /// whole up to this many bytes: its value, unit and dates may follow kilobytes of other attributes.
    public static let elementLimit = 1 << 20
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
            if c.unicodeScalars.contains(where: { isHidden($0) || $0.value == 0x0A }) {
                for u in c.unicodeScalars {
                    if isHidden(u) || u.value == 0x0A { appendVisible(u, to: &out) } else { out.unicodeScalars.append(u) }
                }
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

    /// Messages are capped line by line at this many characters (an argument echoed in an error).
    public static let lineLimit = 1000

    /// `text` with every line capped (`cap`, which also makes control characters visible): the one
    /// home for what the CLI writes to stderr, so a 10 KB argument costs one line of output.
    public static func lines(_ text: String, limit: Int = lineLimit) -> String {
        guard text.utf8.count > limit || needsEscape(text) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { cap($0, to: limit) }.joined(separator: "\n")
    }

    /// `text` as a terminal may show it: control characters (C0 but newline and tab, DEL, C1) and
    /// the bidirectional overrides written as `\u{…}`, so a meal name or a note never drives the
    /// terminal (colours, cursor moves, a title, text that reads backwards).
    public static func visible(_ text: String) -> String {
        guard needsEscape(text) else { return text }
        var out = ""
        for u in text.unicodeScalars {
            if isHidden(u) { appendVisible(u, to: &out) } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    static func needsEscape(_ text: String) -> Bool { text.unicodeScalars.contains(where: isHidden) }

    /// Whether a character of data is never written as itself, to a terminal or into markup:
    /// C0 controls but newline and tab (ESC, BEL, CR, NUL — XML 1.0 forbids them even as
    /// character references), DEL, C1, the bidirectional overrides and the noncharacters
    /// U+FFFE/U+FFFF (not XML characters either). Each is shown as `\u{…}` (`appendVisible`).
    public static func isHidden(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x0A, 0x09: return false
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// The visible form of a hidden character, `\u{1b}`: the one notation every output kind uses.
    public static func appendVisible(_ u: Unicode.Scalar, to out: inout String) {
        out += "\\u{" + String(u.value, radix: 16) + "}"
    }
}
