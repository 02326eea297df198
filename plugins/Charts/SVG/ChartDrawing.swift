/// A view drawn as SVG: a standalone file (`--svg`, with its own size and style) or an element
/// of the page (scaled by the page, styled by its stylesheet). Views only draw their body.
public protocol ChartDrawing {
    var width: Double { get }
    var height: Double { get }
    /// The class after `hp-chart` (`day-chart` …), which the page's script and tests look for.
    var kind: String { get }
    /// The id of the body's `<title>`, which names the figure for screen readers.
    var titleID: String? { get }
    func body(_ m: inout Markup)
}

extension ChartDrawing {
    public var viewBox: String { "0 0 " + Fmt.coord(width) + " " + Fmt.coord(height) }

    /// A standalone SVG document.
    public func document() -> String {
        var m = Markup(capacity: 128 * 1024)
        m.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"hp-chart \(kind)\" width=\"\(Fmt.coord(width))\" height=\"\(Fmt.coord(height))\" viewBox=\"\(viewBox)\" role=\"img\">")
        m.raw("<style>" + ChartStyle.css + "</style>")
        body(&m)
        m.raw("</svg>\n")
        return m.text
    }

    /// The SVG element for the page.
    public func element() -> String {
        var m = Markup(capacity: 128 * 1024)
        element(into: &m)
        return m.text
    }

    /// The SVG element, written into the page's markup.
    public func element(into m: inout Markup) {
        m.raw("<svg class=\"hp-chart \(kind)\" viewBox=\"\(viewBox)\" role=\"img\"" + (titleID.map { " aria-labelledby=\"\($0)\"" } ?? "") + ">")
        body(&m)
        m.raw("</svg>")
    }
}
