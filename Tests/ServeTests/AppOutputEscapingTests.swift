import Foundation
import HealthPipeTestSupport
import Testing

/// Issue 36 through the server: a meal, note and device name with control characters, markup,
/// quotes and a noncharacter, uploaded as an uploader sends it, and a subject named with them: every
/// app screen's markup holds no character XML forbids and its charts are well-formed XML, the API's
/// JSON reads back with the text kept, and the server's own log never drives a terminal.
@Suite struct AppOutputEscapingTests {
    typealias Check = OutputKindChecks

    @Test func everyScreenAndAnswerKeepsItsKindWellFormed() throws {
        let db = NightscoutSupport.database()
        let server = try NightscoutSupport.server(db, ["--subject", Check.hostileText, "--timezone", "UTC"])
        let literal = String(decoding: try JSONSerialization.data(withJSONObject: [Check.hostileTextWithNUL]), as: UTF8.self).dropFirst().dropLast()
        let start: Int64 = 1_775_390_400_000  // 2026-04-05T12:00:00Z
        let entries = (0..<24).map { #"{"type":"sgv","sgv":\#(110 + $0 * 3),"date":\#(start + Int64($0) * 300_000),"device":\#(literal)}"# }
        #expect(try NightscoutSupport.send(server, "/api/v1/entries.json", Data(("[" + entries.joined(separator: ",") + "]").utf8)).status == 200)
        let treatments = #"[{"eventType":"Meal Bolus","carbs":40,"insulin":2,"created_at":"2026-04-05T12:10:00Z","notes":\#(literal),"enteredBy":\#(literal)}]"#
        #expect(try NightscoutSupport.send(server, "/api/v1/treatments.json", Data(treatments.utf8)).status == 200)

        for path in ["/day/2026-04-05", "/", "/days?from=2026-04-01&to=2026-04-05", "/agp?from=2026-04-01&to=2026-04-05", "/reports", "/settings"] {
            let r = try HTTPExchange.send(server.base + path, headers: ["api-secret": NightscoutSupport.hash])
            #expect(r.status == 200, "\(path): \(r.status)")
            #expect(Check.markupProblem(r.text) == nil, "\(path)")
            for (i, svg) in Check.svgElements(r.text).enumerated() { #expect(Check.xmlProblem(Data(svg.utf8)) == nil, "\(path) chart \(i)") }
            #expect(r.text.components(separatedBy: "</script>").count <= 2, "\(path): data closed a script")
        }
        let day = try HTTPExchange.send(server.base + "/day/2026-04-05", headers: ["api-secret": NightscoutSupport.hash]).text
        #expect(day.contains("A\\u{1}\\u{7}\\u{1b}[31m\\u{0}]]&gt;&lt;/script&gt;"), "the meal's name is shown, escaped")

        for path in ["/api/v1/treatments.json", "/api/v1/entries.json?count=5", "/api/v1/status.json"] {
            let r = try HTTPExchange.send(server.base + path, headers: ["api-secret": NightscoutSupport.hash])
            #expect(r.status == 200, "\(path)")
            #expect(Check.jsonProblem(r.body) == nil, "\(path)")
        }
        let stored = try NightscoutSupport.get(server, "/api/v1/treatments.json?find[created_at][$gte]=2026-04-01T00:00:00Z&count=10")
        #expect(stored.contains { $0["notes"] as? String == Check.hostileTextWithNUL }, "the note is kept exactly: \(stored)")
        #expect(server.stop() == 0)
        #expect(Check.terminalProblem(server.stderr) == nil)
    }
}
