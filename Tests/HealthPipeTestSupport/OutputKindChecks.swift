import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What every output of a kind must be whatever the data held (docs/reliability.md, "Output text,
/// one rule per kind"): each check answers nil when the output is fine, else what is wrong with it.
public enum OutputKindChecks {
    /// Text with control characters, markup, a CDATA end, a script end, quotes, an ampersand, a
    /// noncharacter and a line separator: what a subject, meal, device or file name may hold.
    public static let hostileText = "A\u{01}\u{07}\u{1B}[31m]]></script>\"'&\u{FFFE}\u{2028}Z"
    /// The same with a NUL, which only a file can carry (an argument cannot).
    public static let hostileTextWithNUL = "A\u{01}\u{07}\u{1B}[31m\u{0}]]></script>\"'&\u{FFFE}\u{2028}Z"

    /// A document libxml2 (through `XMLParser`) does not read as well-formed XML.
    public static func xmlProblem(_ data: Data) -> String? {
        let parser = XMLParser(data: data)
        guard !parser.parse() else { return nil }
        return "not well-formed XML at \(parser.lineNumber):\(parser.columnNumber): \(parser.parserError.map { "\($0)" } ?? "?")"
    }

    /// Every inline `<svg …>…</svg>` of an HTML page, each of which must be well-formed XML too.
    public static func svgElements(_ html: String) -> [String] {
        var out: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "<svg "), let end = rest[start.lowerBound...].range(of: "</svg>") {
            out.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return out
    }

    /// Markup (SVG, HTML) holding a character XML 1.0 forbids (C0 but tab, newline and carriage
    /// return; U+FFFE, U+FFFF) or one HTML calls a control (DEL, C1).
    public static func markupProblem(_ text: String) -> String? {
        let bad = text.unicodeScalars.filter { u in
            switch u.value {
            case 0x09, 0x0A, 0x0D: return false
            case 0..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: return true
            default: return false
            }
        }
        return bad.isEmpty ? nil : "markup holds \(bad.count) forbidden characters: \(bad.prefix(5).map { String($0.value, radix: 16) })"
    }

    /// A JSON text that `JSONSerialization` does not read.
    public static func jsonProblem(_ data: Data) -> String? {
        do { _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]); return nil } catch {
            return "not JSON: \(error) in \(String(decoding: data.prefix(200), as: UTF8.self).debugDescription)"
        }
    }

    /// NDJSON whose lines are not each a JSON document (and not empty).
    public static func ndjsonProblem(_ data: Data) -> String? {
        let lines = data.split(separator: UInt8(ascii: "\n"))
        if lines.isEmpty { return "no lines" }
        return lines.lazy.compactMap { jsonProblem(Data($0)) }.first
    }

    /// Text for a terminal holding a control character other than newline and tab (ESC, BEL,
    /// CR, NUL, DEL, C1): data that would drive the user's terminal.
    public static func terminalProblem(_ text: String) -> String? {
        let bad = text.unicodeScalars.filter { u in
            switch u.value {
            case 0x09, 0x0A: return false
            case 0..<0x20, 0x7F...0x9F: return true
            default: return false
            }
        }
        return bad.isEmpty ? nil : "terminal text holds \(bad.count) control characters: \(text.debugDescription.prefix(300))"
    }
}
