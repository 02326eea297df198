/// A text buffer for SVG and HTML with escaping in one place. Views append pre-built element
/// text (faster than a node tree for pages with thousands of points); every piece of data that
/// goes into text or an attribute passes through `escape`.
public struct Markup {
    public private(set) var text = ""

    public init(capacity: Int = 16 * 1024) { text.reserveCapacity(capacity) }

    @inline(__always)
    public mutating func raw(_ s: String) { text += s }

    /// Escaped character data or attribute value.
    public mutating func escaped(_ s: String) { text += Self.escape(s) }

    public static func escape(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// `<text …>content</text>` with the content escaped.
    public mutating func textElement(x: Double, y: Double, _ content: String, attributes: String = "") {
        text += "<text x=\"" + Fmt.coord(x) + "\" y=\"" + Fmt.coord(y) + "\"" + (attributes.isEmpty ? "" : " " + attributes) + ">"
        text += Self.escape(content) + "</text>"
    }

    /// `<title>` — the tooltip browsers show on hover, and the page's details on tap.
    public mutating func title(_ content: String) { text += "<title>" + Self.escape(content) + "</title>" }

    public mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, attributes: String) {
        text += "<line x1=\"" + Fmt.coord(x1) + "\" y1=\"" + Fmt.coord(y1) + "\" x2=\"" + Fmt.coord(x2) + "\" y2=\"" + Fmt.coord(y2)
        text += "\" " + attributes + "/>"
    }

    public mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, attributes: String) {
        text += "<rect x=\"" + Fmt.coord(x) + "\" y=\"" + Fmt.coord(y) + "\" width=\"" + Fmt.coord(max(0, w)) + "\" height=\""
        text += Fmt.coord(max(0, h)) + "\" " + attributes + "/>"
    }

    /// Path data from points, starting a new sub-path where `breaks` says so.
    public static func path(_ points: [(x: Double, y: Double)], breakBefore: (Int) -> Bool = { _ in false }) -> String {
        var d = ""
        d.reserveCapacity(points.count * 12)
        for (i, p) in points.enumerated() {
            d += (i == 0 || breakBefore(i)) ? "M" : "L"
            d += Fmt.coord(p.x) + " " + Fmt.coord(p.y)
        }
        return d
    }
}
