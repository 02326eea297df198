import Foundation
import HealthPipeTestSupport
import Testing

/// Issue 36: a subject, meal, note, device or file name with control characters, markup, quotes, a
/// noncharacter or a line separator goes through every writer that shows it, and each output stays
/// what its kind must be (docs/reliability.md, "Output text, one rule per kind"): SVG well-formed
/// XML, the page's markup free of characters XML forbids, JSON and NDJSON readable, terminal text
/// free of control characters. The data itself is kept: JSON holds the text exactly.
@Suite struct OutputEscapingTests {
    typealias Check = OutputKindChecks
    let hostile = Check.hostileText

    /// A JSON string literal of `text` (`\u00XX` for controls), as an uploader writes it.
    static func jsonLiteral(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// A store holding the hostile texts: Nightscout readings whose device has them, in a file whose
    /// name has them, one reading refused (quarantined with its raw text), a meal and a note whose
    /// text has them (the note's type also as raw control bytes), and a meal named with them, all of a
    /// subject named with them. Returns the folder and the import's terminal output.
    func store() throws -> (dir: URL, db: String, importOutput: String) {
        let dir = E2E.tempDir(), db = dir.appendingPathComponent("h.sqlite").path
        let text = Self.jsonLiteral(Check.hostileTextWithNUL)
        let start: Int64 = 1_775_390_400_000  // 2026-04-05T12:00:00Z
        var entries = (0..<24).map { #"{"type":"sgv","sgv":\#(110 + $0 * 3),"date":\#(start + Int64($0) * 300_000),"device":\#(text)}"# }
        entries.append(#"{"type":"sgv","sgv":\#(text),"date":\#(start),"device":\#(text)}"#)
        let entriesFile = dir.appendingPathComponent("entries\u{1B}[31m\u{07}.json")
        try E2E.write("[" + entries.joined(separator: ",\n") + "]", to: entriesFile)
        let treatments = dir.appendingPathComponent("treatments.json")
        try E2E.write("""
            [{"eventType":"Meal Bolus","carbs":40,"insulin":2,"created_at":"2026-04-05T12:10:00Z","notes":\(text),"enteredBy":\(text)},
             {"eventType":"No\u{01}\u{1B}te","created_at":"2026-04-05T12:20:00Z","notes":\(text)}]
            """, to: treatments)
        let r = try E2E.run(["import", entriesFile.path, treatments.path, "--db", db, "--subject", hostile, "--timezone", "UTC",
                             "--quarantine", dir.appendingPathComponent("q.ndjson").path,
                             "--ndjson", dir.appendingPathComponent("out.ndjson").path, "--report", dir.appendingPathComponent("report.json").path])
        #expect(r.code == 3, "\(r.stderr)")  // the reading whose value is text is refused
        let meal = try E2E.run(["add", "meal", "--db", db, "--subject", hostile, "--name", hostile, "--carbs", "30",
                                "--at", "2026-04-05 13:00", "--timezone", "UTC"])
        #expect(meal.code == 0, "\(meal.stderr)")
        return (dir, db, r.stdout + r.stderr + meal.stdout + meal.stderr)
    }

    func data(_ url: URL) -> Data { (try? Data(contentsOf: url)) ?? Data() }

    @Test func everyFileWriterKeepsItsKindWellFormed() throws {
        let (dir, db, importOutput) = try store()
        #expect(Check.terminalProblem(importOutput) == nil)
        // JSON: the quarantine, the NDJSON sink and the run report read back, the text kept exactly.
        for name in ["q.ndjson", "out.ndjson"] {
            #expect(Check.ndjsonProblem(data(dir.appendingPathComponent(name))) == nil, "\(name)")
        }
        #expect(Check.jsonProblem(data(dir.appendingPathComponent("report.json"))) == nil)
        let ndjson = String(decoding: data(dir.appendingPathComponent("out.ndjson")), as: UTF8.self)
        #expect(ndjson.split(separator: "\n").contains { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["note"] as? String == Check.hostileTextWithNUL
        }, "the note is kept exactly")

        // SVG: every chart view as a standalone file is well-formed XML.
        for view in ["day", "agp", "days"] {
            let svg = dir.appendingPathComponent("\(view).svg")
            var args = ["chart", view, "--db", db, "--subject", hostile, "--svg", svg.path]
            if view == "day" { args += ["--date", "2026-04-05"] }
            let r = try E2E.run(args)
            #expect(r.code == 0, "\(view): \(r.stderr)")
            #expect(Check.terminalProblem(r.stdout + r.stderr) == nil)
            let bytes = data(svg)
            #expect(Check.xmlProblem(bytes) == nil, "\(view)")
            #expect(Check.markupProblem(String(decoding: bytes, as: UTF8.self)) == nil, "\(view)")
        }
        let svg = String(decoding: data(dir.appendingPathComponent("day.svg")), as: UTF8.self)
        #expect(svg.contains("A\\u{1}\\u{7}\\u{1b}[31m]]&gt;&lt;/script&gt;&quot;&#39;&amp;\\u{fffe}\u{2028}Z"), "the name is shown, escaped")

        // Chart data JSON holds the subject and the meal name exactly.
        let json = try E2E.run(["chart", "day", "--db", db, "--subject", hostile, "--date", "2026-04-05"])
        #expect(json.code == 0, "\(json.stderr)")
        #expect(Check.jsonProblem(Data(json.stdout.utf8)) == nil)
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["subject"] as? String == hostile)

        // The HTML page: no character XML forbids, every inline chart well-formed, one script end.
        let pagePath = dir.appendingPathComponent("page.html")
        let page = try E2E.run(["page", "--db", db, "--subject", hostile, "-o", pagePath.path])
        #expect(page.code == 0, "\(page.stderr)")
        #expect(Check.terminalProblem(page.stdout + page.stderr) == nil)
        let html = String(decoding: data(pagePath), as: UTF8.self)
        #expect(Check.markupProblem(html) == nil)
        let svgs = Check.svgElements(html)
        #expect(svgs.count > 3)
        for (i, s) in svgs.enumerated() { #expect(Check.xmlProblem(Data(s.utf8)) == nil, "inline chart \(i)") }
        #expect(html.components(separatedBy: "</script>").count == 2 && !html.contains("]]>"), "data closed a script or CDATA")
    }

    @Test func everyTerminalViewShowsControlCharactersVisibly() throws {
        let (_, db, _) = try store()
        for args in [["entries", "list"], ["metrics"], ["days"], ["reports", "list"], ["chart", "history"], ["history"]] {
            let r = try E2E.run(args + ["--db", db, "--subject", hostile])
            #expect(r.code == 0 || r.code == 1, "\(args): \(r.stderr)")
            #expect(Check.terminalProblem(r.stdout + r.stderr) == nil, "\(args)")
        }
        let list = try E2E.run(["entries", "list", "--db", db, "--subject", hostile])
        #expect(list.stdout.contains("\\u{1b}[31m"), "the name is shown, visibly: \(list.stdout)")
    }

    /// A pipeline's subject (YAML escapes carry a NUL) through the FHIR and NDJSON sinks.
    @Test func fhirAndNDJSONSinksOfAPipelineAreJSON() throws {
        let dir = E2E.tempDir(), out = dir.appendingPathComponent("fhir")
        let s = E2E.samples.path
        try E2E.write(#"""
            sources:
              cgm: { type: tidepool, path: '\#(s)/tidepool/tidepool_export.json', subject: "A\x01\a\e[31m\0]]></script>\"'&\uFFFE\u2028Z" }
            sinks:
              clinic: { type: fhir, inputs: [cgm], path: '\#(out.path)' }
              feed: { type: ndjson, inputs: [cgm], path: '\#(dir.appendingPathComponent("out.ndjson").path)' }
            """#, to: dir.appendingPathComponent("p.yml"))
        let r = try E2E.run(["run", dir.appendingPathComponent("p.yml").path])
        #expect(r.code == 3, "\(r.stderr)")  // the Tidepool sample has one bad reading
        #expect(Check.terminalProblem(r.stdout + r.stderr) == nil)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(files.contains("Patient.ndjson") && files.contains("Observation.ndjson"), "\(files)")
        for f in files { #expect(Check.ndjsonProblem(data(out.appendingPathComponent(f))) == nil, "\(f)") }
        let feed = data(dir.appendingPathComponent("out.ndjson"))
        #expect(Check.ndjsonProblem(feed) == nil)
        #expect(String(decoding: feed, as: UTF8.self).contains(#""subject":"A\u0001\u0007\u001b[31m\u0000]]></script>\"'&"#))
    }
}
