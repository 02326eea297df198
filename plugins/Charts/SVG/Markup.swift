import HealthPipeCore

/// A text buffer for SVG and HTML with escaping in one place. Views append pre-built element
/// text (faster than a node tree for pages with thousands of points); every piece of data that
/// goes into text or an attribute passes through `escape`. The text is kept as UTF-8 bytes and
/// numbers are written straight into it: a day view appends some 50,000 pieces.
public struct Markup: Sendable {
    private var bytes: [UInt8] = []

    public init(capacity: Int = 16 * 1024) { bytes.reserveCapacity(capacity) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
    public var utf8Count: Int { bytes.count }
    /// The text's UTF-8 bytes (a response body, without making a String of them).
    public var utf8: [UInt8] { bytes }

    @inline(__always)
    public mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Another markup's text.
    public mutating func raw(_ other: Markup) { bytes.append(contentsOf: other.bytes) }

    /// A coordinate as `Fmt.coord` writes it: one decimal, a trailing ".0" dropped.
    public mutating func coord(_ v: Double) {
        let n = Int64((v * 10).rounded())
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        let m = n.magnitude
        int(m / 10)
        if m % 10 != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(m % 10))
        }
    }

    /// A whole number in decimal.
    public mutating func int(_ v: UInt64) {
        if v < 10 { return bytes.append(UInt8(ascii: "0") + UInt8(v)) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = v, count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while n > 0 {
                d[19 - count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            }
            bytes.append(contentsOf: d[(20 - count)...])
        }
    }

    /// A local clock time as `Fmt.clock` writes it (HH:MM).
    public mutating func clock(localSeconds s: Int64) {
        let t = s - CivilDate.floorDiv(s, 86_400) * 86_400
        let h = t / 3600, min = t / 60 % 60
        bytes.append(UInt8(ascii: "0") + UInt8(h / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(h % 10))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: "0") + UInt8(min / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(min % 10))
    }

    /// Escaped character data or attribute value.
    public mutating func escaped(_ s: String) { raw(Self.escape(s)) }

    /// The one escaping rule of every SVG and HTML HealthPipe writes (charts, the page, the
    /// server's app): `& < > " '` as entities, and every character XML 1.0 cannot carry even as a
    /// reference (C0 controls but tab and newline, U+FFFE/U+FFFF) — with DEL, C1 and the bidi
    /// overrides, as on the terminal — shown as `\u{1b}` (`EchoText.isHidden`), so a name with
    /// `ESC [31m` or NUL still gives a well-formed document that says what the data held.
    public static func escape(_ s: String) -> String {
        // Bytes first (most text is ASCII without markup), then characters: "·" or "–" shares a lead
        // byte with C1 or the bidi overrides but needs nothing, and is returned without a copy.
        guard s.utf8.contains(where: mayNeedEscape), s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if EchoText.isHidden(c) { EchoText.appendVisible(c, to: &out) } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    private static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        u == "&" || u == "<" || u == ">" || u == "\"" || u == "'" || EchoText.isHidden(u)
    }

    /// A byte that may start something `escape` rewrites: a markup character, a C0 control or
    /// DEL, or the lead byte of a C1 control (C2), a bidi override (E2) or U+FFFE/U+FFFF (EF).
    @inline(__always)
    private static func mayNeedEscape(_ b: UInt8) -> Bool {
        switch b {
        case 0x26, 0x3C, 0x3E, 0x22, 0x27, 0x7F, 0xC2, 0xE2, 0xEF: return true
        case 0x09, 0x0A: return false
        default: return b < 0x20
        }
    }

    /// `<text …>content</text>` with the content escaped.
    public mutating func textElement(x: Double, y: Double, _ content: String, attributes: String = "") {
        raw("<text x=\"" as StaticString)
        coord(x)
        raw("\" y=\"" as StaticString)
        coord(y)
        raw("\"" as StaticString)
        if !attributes.isEmpty {
            raw(" " as StaticString)
            raw(attributes)
        }
        raw(">" as StaticString)
        escaped(content)
        raw("</text>" as StaticString)
    }

    /// `<title>` — the tooltip browsers show on hover, and the page's details on tap.
    public mutating func title(_ content: String) {
        raw("<title>" as StaticString)
        escaped(content)
        raw("</title>" as StaticString)
    }

    public mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, attributes: String) {
        raw("<line x1=\"" as StaticString)
        coord(x1)
        raw("\" y1=\"" as StaticString)
        coord(y1)
        raw("\" x2=\"" as StaticString)
        coord(x2)
        raw("\" y2=\"" as StaticString)
        coord(y2)
        raw("\" " as StaticString)
        raw(attributes)
        raw("/>" as StaticString)
    }

    public mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, attributes: String) {
        raw("<rect x=\"" as StaticString)
        coord(x)
        raw("\" y=\"" as StaticString)
        coord(y)
        raw("\" width=\"" as StaticString)
        coord(max(0, w))
        raw("\" height=\"" as StaticString)
        coord(max(0, h))
        raw("\" " as StaticString)
        raw(attributes)
        raw("/>" as StaticString)
    }

    /// Path data from points, starting a new sub-path where `breaks` says so.
    public static func path(_ points: [(x: Double, y: Double)], breakBefore: (Int) -> Bool = { _ in false }) -> String {
        var d = Markup(capacity: points.count * 12)
        for (i, p) in points.enumerated() {
            d.raw((i == 0 || breakBefore(i)) ? "M" as StaticString : "L")
            d.coord(p.x)
            d.raw(" " as StaticString)
            d.coord(p.y)
        }
        return d.text
    }
}
