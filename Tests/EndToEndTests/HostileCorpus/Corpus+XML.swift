import Foundation

/// Malformed or hostile Apple Health exports: the bad element is quarantined with its line and raw
/// text (value, unit, dates), and every other record of the export still lands.
/// `CorpusData.appleExport` puts 5 good records before the bad element (which starts on line 9) and 5 after.
extension HostileCorpus {
    static let glucoseStart = "startDate=\"2024-03-01 01:00:00 +0000\" endDate=\"2024-03-01 01:00:00 +0000\""

    static func glucose(_ value: String, unit: String = "mg/dL", source: String = "Meter", close: String = "/>") -> String {
        " <Record type=\"HKQuantityTypeIdentifierBloodGlucose\" sourceName=\"\(source)\" unit=\"\(unit)\" \(glucoseStart) value=\"\(value)\"\(close)\n"
    }

    static func xmlCase(_ name: String, _ expect: Expectation, bad: @escaping @Sendable () -> Data) -> HostileCase {
        HostileCase(name, expect) { box in
            let parts = CorpusData.appleExport(around: "@BAD@").components(separatedBy: "@BAD@")
            let data = Data(parts[0].utf8) + bad() + Data(parts[1].utf8)
            return Invocation(arguments: box.importing([try box.write("export.xml", data)]))
        }
    }

    static func malformed(_ reason: String, raw: String = "value=\"77\"") -> Expectation {
        Expectation(exit: 3, measurements: 10, quarantined: [.line(9, reason, raw: raw)],
                    check: { box in
                        let raw = box.quarantinedRows().first?["raw"] as? String ?? ""
                        return raw.contains("unit=\"") && raw.contains("2024-03-01 01:00:00 +0000") ? [] : ["raw lacks unit or dates: \(raw)"]
                    })
    }

    static let xml: [HostileCase] = [
        xmlCase("xml-mismatched-end-tag", malformed("mismatch")) {
            Data((glucose("77", close: ">") + "  <MetadataEntry key=\"k\" value=\"v\"/>\n </Recrd>\n").utf8)
        },
        xmlCase("xml-raw-ampersand", malformed("EntityRef")) { Data(glucose("77", source: "Meter & Co").utf8) },
        xmlCase("xml-control-character", malformed("malformed XML")) { Data(glucose("77", source: "Met\u{1}er").utf8) },
        xmlCase("xml-latin1-byte", malformed("UTF-8")) {
            let parts = glucose("77", source: "@").components(separatedBy: "@")
            return Data(parts[0].utf8) + Data([0x4D, 0xE9, 0x74, 0x65, 0x72]) + Data(parts[1].utf8)
        },
        xmlCase("xml-unescaped-less-than", malformed("Unescaped '<'")) { Data(glucose("77", source: "a<b").utf8) },
        xmlCase("xml-eleven-megabyte-attribute-is-read", Expectation(exit: 0, measurements: 11)) {
            Data((glucose("77", close: ">") + "  <MetadataEntry key=\"note\" value=\"\(String(repeating: "n", count: 11 << 20))\"/>\n </Record>\n").utf8)
        },
        xmlCase("xml-twenty-megabyte-element-is-refused",
                Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "larger than 16 MiB", raw: "value=\"77\"")], stderrLimit: 8192)) {
            Data((glucose("77", close: ">") + "  <MetadataEntry key=\"note\" value=\"\(String(repeating: "n", count: 20 << 20))\"/>\n </Record>\n").utf8)
        },
        xmlCase("xml-nested-200000-levels", Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "nested deeper than 32")],
                                                      stderrLimit: 8192)) {
            Data((glucose("77", close: ">") + String(repeating: "<a>", count: 200_000) + String(repeating: "</a>", count: 200_000)
                  + "\n </Record>\n").utf8)
        },
        xmlCase("xml-glucose-in-kg", malformed("unit 'kg' is not a unit of glucose", raw: "value=\"5\"")) { Data(glucose("5", unit: "kg").utf8) },
        xmlCase("xml-glucose-in-degc", malformed("is not a unit of glucose", raw: "value=\"37\"")) { Data(glucose("37", unit: "degC").utf8) },
        xmlCase("xml-glucose-in-count-per-minute", malformed("is not a unit of glucose", raw: "value=\"80\"")) {
            Data(glucose("80", unit: "count/min").utf8)
        },
        xmlCase("xml-glucose-zero-and-negative",
                Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "plausible range"), .line(10, "plausible range")])) {
            Data((glucose("0") + glucose("-5")).utf8)
        },
        xmlCase("xml-glucose-text-and-nan",
                Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "'abc' is not a number"), .line(10, "'NaN' is not a number")],
                            check: { box in
                                let odd = box.count("measurements", "metric LIKE 'glucose%'") ?? -1
                                return odd == 0 ? [] : ["\(odd) glucose-like metrics were stored (e.g. glucose.abc)"]
                            })) {
            Data((glucose("abc") + glucose("NaN")).utf8)
        },
        xmlCase("xml-sleep-ending-before-it-starts",
                Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "endDate is before startDate")],
                            check: { box in (box.count("measurements", "value < 0") ?? -1) == 0 ? [] : ["a negative duration was stored"] })) {
            Data(" <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" startDate=\"2024-03-01 02:00:00 +0000\" endDate=\"2024-03-01 01:00:00 +0000\" value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>\n".utf8)
        },
        xmlCase("xml-two-bad-elements-in-a-row",
                Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "EntityRef"), .line(10, "mismatch")])) {
            Data((glucose("77", source: "A & B") + glucose("78", close: "></Recrd>")).utf8)
        },
        xmlCase("xml-stray-text-between-elements",
                Expectation(exit: 3, measurements: 10, quarantined: [.any("text between elements")])) {
            Data(" stray text &amp more &\n".utf8)
        },
        HostileCase("xml-truncated-mid-record",
                    Expectation(exit: 3, measurements: 7, quarantined: [.any("truncated")])) { box in
            let full = CorpusData.appleExport(around: "")
            let cut = full.components(separatedBy: "\n").prefix(10).joined(separator: "\n") + "\n <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceN"
            return Invocation(arguments: box.importing([try box.write("export.xml", cut)]))
        },
        HostileCase("xml-content-after-the-root-element",
                    Expectation(exit: 3, measurements: 10, quarantined: [.any("after the end of the HealthData element")])) { box in
            let text = CorpusData.appleExport(around: "") + CorpusData.appleRecord(value: "99", minute: 300)
            return Invocation(arguments: box.importing([try box.write("export.xml", text)]))
        },
        HostileCase("xml-bad-element-first", Expectation(exit: 3, measurements: 5, quarantined: [.line(4, "EntityRef")])) { box in
            var text = CorpusData.appleHead + glucose("77", source: "A & B")
            for i in 0..<5 { text += CorpusData.appleRecord(value: String(70 + i), minute: 200 + i) }
            return Invocation(arguments: box.importing([try box.write("export.xml", text + "</HealthData>\n")]))
        },
        HostileCase("xml-on-one-line", Expectation(exit: 3, measurements: 10, quarantined: [.line(1, "EntityRef")])) { box in
            let text = CorpusData.appleExport(around: glucose("77", source: "A & B")).replacingOccurrences(of: "\n", with: " ")
            return Invocation(arguments: box.importing([try box.write("export.xml", text)]))
        },
        HostileCase("xml-every-third-record-broken", Expectation(exit: 3, measurements: 20,
                                                                quarantined: (0..<10).map { .line(Int64(4 + 3 * $0 + 2), "EntityRef") })) { box in
            var text = CorpusData.appleHead
            for i in 0..<30 {
                text += i % 3 == 2 ? CorpusData.appleRecord(value: "70", minute: i).replacingOccurrences(of: "Watch", with: "W&W")
                                   : CorpusData.appleRecord(value: String(60 + i), minute: i)
            }
            return Invocation(arguments: box.importing([try box.write("export.xml", text + "</HealthData>\n")]))
        },
        HostileCase("xml-external-entity-never-resolved",
                    Expectation(exit: 3, measurements: 10, quarantined: [.line(12, "never expanded")],
                                check: { box in (box.count("measurements", "source LIKE '%root%'") ?? -1) == 0 ? [] : ["/etc/passwd leaked"] })) { box in
            let doctype = "<!DOCTYPE HealthData [\n<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n"
            let text = CorpusData.appleExport(around: glucose("77", source: "&xxe;"))
                .replacingOccurrences(of: "<HealthData locale", with: doctype + "<HealthData locale")
            return Invocation(arguments: box.importing([try box.write("export.xml", text)]))
        },
        HostileCase("xml-billion-laughs", Expectation(exit: 3, measurements: 10, quarantined: [.any("never expanded")])) { box in
            var doctype = "<!DOCTYPE HealthData [\n<!ENTITY lol \"lol\">\n"
            for i in 1...9 { doctype += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">\n" }
            doctype += "]>\n"
            let text = CorpusData.appleExport(around: glucose("77", source: "&lol9;"))
                .replacingOccurrences(of: "<HealthData locale", with: doctype + "<HealthData locale")
            return Invocation(arguments: box.importing([try box.write("export.xml", text)]))
        },
        HostileCase("xml-utf16-with-bom", Expectation(exit: 0, measurements: 10)) { box in
            let text = CorpusData.appleExport(around: "").replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
            return Invocation(arguments: box.importing([try box.write("export.xml", Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!)]))
        },
        HostileCase("xml-zip-of-two-million-nested-elements", Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "nested deeper")],
                                                                        stderrLimit: 8192)) { box in
            let bad = glucose("77", close: ">") + String(repeating: "<a>", count: 2_000_000) + String(repeating: "</a>", count: 2_000_000)
                + "\n </Record>\n"
            try CorpusData.zip([("apple_health_export/export.xml", Data(CorpusData.appleExport(around: bad).utf8))], at: box.path("deep.zip"))
            return Invocation(arguments: box.importing([box.path("deep.zip")]))
        },
    ]
}
