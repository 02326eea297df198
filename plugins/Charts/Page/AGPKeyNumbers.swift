import HealthPipeAnalytics
import HealthPipeCore

/// The AGP's numbers a patient looks for first, as text that wraps: time in each range, the
/// average, GMI, variability and GRI. A phone shows this above the report (whose one-page layout
/// is wider than the screen and scrolls); a desktop and a print show the report itself.
package struct AGPKeyNumbers {
    let view: AGPView

    package init(view: AGPView) { self.view = view }

    package func render(_ m: inout Markup) {
        let s = view.statistics, unit = view.unit
        m.raw("<div class=\"agp-key\" aria-label=\"Key numbers of the AGP report\"><ul class=\"agp-ranges\">")
        // Highest range first, as the report's bar stacks them.
        for r in view.ranges.sorted(by: { $0.level > $1.level }) {
            m.raw("<li style=\"border-color:\(Palette.rangeBar(level: r.level))\"><b>")
            m.escaped(Fmt.percent(r.percent) + "%")
            m.raw("</b> ")
            m.escaped(r.title + " (" + r.range + ")")
            m.raw(" <small>target ")
            m.escaped(r.target)
            m.raw("</small></li>")
        }
        m.raw("</ul><dl class=\"agp-stats\">")
        func stat(_ name: String, _ value: String?, _ key: String) {
            m.raw("<div><dt>")
            m.escaped(name)
            m.raw("</dt><dd data-key=\"\(key)\">")
            m.escaped(value ?? "–")
            m.raw("</dd></div>")
        }
        stat("Average glucose", s.mean.map { unit.text($0) + " " + unit.rawValue }, "mean")
        stat("GMI", s.gmi.map { Fmt.fixed($0, 1) + "%" }, "gmi")
        stat("Variability (CV)", s.cv.map { Fmt.fixed($0, 1) + "%" }, "cv")
        stat("GRI", s.gri.map { Fmt.fixed($0, 1) + " · zone " + GRIZone.letter($0) }, "gri")
        m.raw("</dl></div>")
    }
}
