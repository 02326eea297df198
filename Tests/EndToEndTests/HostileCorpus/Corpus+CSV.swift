import Foundation

/// Broken CSV rows: each is quarantined with its line and reason, every valid row still lands.
/// `lines[k]` is file line k + 1; the Clarity sample's readings are lines 13–2160.
extension HostileCorpus {
    static func egv(_ index: Int, _ glucose: String) -> Data {
        Data("\(index),2016-10-25T10:\(String(format: "%02d", index % 60)):17,EGV,,,,iPhone G6,\(glucose),,,,".utf8)
    }

    static let csv: [HostileCase] = [
        HostileCase("stray-quote-swallows-nothing",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1,
                                quarantined: [.line(301, "unbalanced quote", raw: "\"103")])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[300] = egv(290, "\"103") })]))
        },
        HostileCase("stray-quote-on-the-last-line",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(2160, "unbalanced quote")])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[2159] = egv(2159, "\"108") })]))
        },
        HostileCase("quoted-field-over-many-lines-is-cut-and-reading-resumes",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(301, "unbalanced quote")])) { box in
            let data = CorpusData.clarity { $0[300] = egv(290, "\"103\nstill inside the quote\nand more") }
            return Invocation(arguments: box.importing([try box.write("in.csv", data)]))
        },
        HostileCase("cr-line-endings", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity(ending: "\r"))]))
        },
        HostileCase("crlf-line-endings", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity(ending: "\r\n"))]))
        },
        HostileCase("mixed-line-endings", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            var lines = CorpusData.clarityLines
            var out = Data()
            for (i, l) in lines.enumerated() { out += l + Data(["\n", "\r\n", "\r"][i % 3].utf8) }
            lines.removeAll()
            return Invocation(arguments: box.importing([try box.write("in.csv", out)]))
        },
        HostileCase("decimal-comma-does-not-shift-columns",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(401, "decimal comma")])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[400] = egv(390, "103,5") })]))
        },
        HostileCase("mgdl-number-in-a-mmol-column",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1,
                                quarantined: [.line(301, "a mg/dL value in a mmol/L column")],
                                check: { box in
                                    let max = box.query("SELECT max(value) FROM measurements").first?.first ?? ""
                                    return (Double(max) ?? 9999) <= 400 ? [] : ["largest stored glucose is \(max) mg/dL"]
                                })) { box in
            let data = CorpusData.clarity { lines in
                lines[0] = Data(CorpusData.text(lines[0]).replacingOccurrences(of: "(mg/dL)", with: "(mmol/L)").utf8)
                for i in 12..<lines.count {
                    var cells = CorpusData.text(lines[i]).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    if let v = Double(cells[7]) { cells[7] = String(format: "%.1f", v / 18.0156) }
                    lines[i] = Data(cells.joined(separator: ",").utf8)
                }
                lines[300] = egv(290, "120")
            }
            return Invocation(arguments: box.importing([try box.write("in.csv", data)]))
        },
        HostileCase("zero-and-negative-glucose",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 2,
                                quarantined: [.line(301, "plausible range"), .line(302, "plausible range")])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[300] = egv(290, "0"); $0[301] = egv(291, "-5") })]))
        },
        HostileCase("nan-inf-and-text-glucose",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 3,
                                quarantined: [.line(301, "not a number"), .line(302, "not a number"), .line(303, "not a number")],
                                check: { box in
                                    let odd = box.count("measurements", "metric <> 'glucose'") ?? -1
                                    return odd == 0 ? [] : ["\(odd) measurements with another metric name"]
                                })) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity {
                $0[300] = egv(290, "NaN"); $0[301] = egv(291, "inf"); $0[302] = egv(292, "abc")
            })]))
        },
        HostileCase("ten-megabyte-cell-is-capped-in-stderr-and-quarantine",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(301, "line longer than")],
                                stderrLimit: 8192)) { box in
            let big = String(repeating: "7", count: 10 << 20)
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[300] = egv(290, big) })]))
        },
        HostileCase("hundred-kilobyte-cell-is-capped",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(301, "not a number")],
                                stderrLimit: 8192)) { box in
            let big = String(repeating: "x", count: 100_000)
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[300] = egv(290, big) })]))
        },
        HostileCase("nul-bytes-in-a-cell",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(301, "not a number")])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[300] = egv(290, "1\u{0}\u{0}3") })]))
        },
        HostileCase("latin1-byte-in-a-cell",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(301, "not a number")])) { box in
            let row = Data("290,2016-10-25T10:50:17,EGV,,,,iPhone G6,10".utf8) + Data([0xE9]) + Data(",,,,".utf8)
            return Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[300] = row })]))
        },
        HostileCase("double-encoded-bom", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", Data([0xC3, 0xAF, 0xC2, 0xBB, 0xC2, 0xBF]) + CorpusData.clarity.dropFirst(3))]))
        },
        HostileCase("blank-and-whitespace-lines", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { lines in
                for i in stride(from: lines.count - 1, to: 13, by: -97) { lines.insert(Data(i % 2 == 0 ? "".utf8 : "   \t ".utf8), at: i) }
            })]))
        },
        HostileCase("header-only", Expectation(exit: 0, measurements: 0)) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarityLines[0] + Data("\n".utf8))]))
        },
        HostileCase("truncated-last-row",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(2160, "truncated")])) { box in
            var data = CorpusData.clarity
            data.removeLast(8)
            return Invocation(arguments: box.importing([try box.write("in.csv", data)]))
        },
        HostileCase("every-other-reading-is-garbage",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings / 2,
                                quarantined: stride(from: 13, through: 2160, by: 2).map { .line(Int64($0), "") })) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { lines in
                for i in stride(from: 12, to: lines.count, by: 2) { lines[i] = Data("#$%^&*(),garbage;;".utf8) }
            })]))
        },
        HostileCase("row-wider-than-the-header",
                    Expectation(exit: 3, measurements: CorpusData.clarityReadings - 1, quarantined: [.line(501, "the header has 12")])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity { $0[500] += Data(",extra,cells".utf8) })]))
        },
        HostileCase("libreview-month-first-row-in-a-day-first-file",
                    Expectation(exit: 3, measurements: 4617, quarantined: [.line(4, "unreadable timestamp")],
                                stderr: ["can only be MM-DD-YYYY"])) { box in
            var (lines, ending) = try CorpusData.lines(CorpusData.libreURL)
            lines[3] = lines[3].replacingOccurrences(of: "12-04-1961", with: "04-13-1961")
            return Invocation(arguments: box.importing([try box.write("libre.csv", lines.joined(separator: ending))]))
        },
        HostileCase("libreview-dates-split-evenly-refuse-the-file",
                    Expectation(exit: 1, stderr: ["as often one way as the other", "date_order"])) { box in
            let header = "Device,Serial Number,Device Timestamp,Record Type,Historic Glucose mg/dL\n"
            let rows = "Libre,1,13-04-2024 10:00,0,100\nLibre,1,04-13-2024 10:15,0,101\nLibre,1,05-04-2024 10:30,0,102\n"
            return Invocation(arguments: box.importing([try box.write("libre.csv", "Glucose Data,Generated on\n" + header + rows)]))
        },
        HostileCase("carelink-separator-inside-a-value-does-not-shift-columns",
                    Expectation(exit: 3, measurements: 1538, events: 348, quarantined: [.line(411, "the header has 48")])) { box in
            var (lines, ending) = try CorpusData.lines(CorpusData.careLinkURL)
            lines[410] = lines[410].replacingOccurrences(of: ";55;", with: ";5;5;")
            return Invocation(arguments: box.importing([try box.write("carelink.csv", lines.joined(separator: ending))]))
        },
        HostileCase("nightscout-text-value",
                    Expectation(exit: 3, measurements: 993,
                                quarantined: [246, 247, 248, 249].map { .line($0, "below the valid minimum") } + [.line(300, "not a number")]
                                    + [345, 346].map { .line($0, "below the valid minimum") })) { box in
            // The sample's own six sensor error codes (lines 246–249, 345, 346) stay quarantined too.
            var (lines, ending) = try CorpusData.lines(CorpusData.nightscoutURL)
            var cells = lines[299].components(separatedBy: ",")
            cells[2] = "abc"
            lines[299] = cells.joined(separator: ",")
            return Invocation(arguments: box.importing([try box.write("ns.csv", lines.joined(separator: ending))]))
        },
    ]
}
