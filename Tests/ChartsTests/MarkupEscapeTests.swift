import Charts
import Foundation
import HealthPipeTestSupport
import Testing

/// `Markup.escape`, the one rule of every SVG and HTML HealthPipe writes (docs/reliability.md).
@Suite struct MarkupEscapeTests {
    @Test func hostileTextInTextAndAttributesIsWellFormedXML() {
        let text = OutputKindChecks.hostileTextWithNUL + "\u{FFFF}\r\u{7F}\u{85}\u{202E}"
        var m = Markup()
        m.raw("<svg xmlns=\"http://www.w3.org/2000/svg\"><g data-name=\"")
        m.escaped(text)
        m.raw("\" data-other='")
        m.escaped(text)
        m.raw("'>")
        m.title(text)
        m.textElement(x: 1, y: 2, text)
        m.raw("</g></svg>")
        #expect(OutputKindChecks.xmlProblem(Data(m.utf8)) == nil, "\(m.text.debugDescription)")
        #expect(OutputKindChecks.markupProblem(m.text) == nil)
        #expect(Markup.escape(text) == "A\\u{1}\\u{7}\\u{1b}[31m\\u{0}]]&gt;&lt;/script&gt;&quot;&#39;&amp;\\u{fffe}\u{2028}Z\\u{ffff}\\u{d}\\u{7f}\\u{85}\\u{202e}")
    }

    @Test func plainAndNonASCIITextIsUnchanged() {
        for s in ["In range", "4.0–10.0 mmol/L", "Müsli · 40 g", "≥ 250", "°C", "🍕 tab\there\nnext"] { #expect(Markup.escape(s) == s) }
    }
}
