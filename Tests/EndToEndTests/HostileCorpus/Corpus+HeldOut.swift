import Foundation

/// Round 3's held-out cases (issue 21), each the test of one rule: a DST-gap reading and the reading
/// an hour later keep their own instants (`LocalTimePlacer`); a rejected Health record keeps every line
/// (`RecoveringParser.currentElement`); stray bytes in a binary stream are never frames
/// (`BinaryFrameDecoder`: the next marker confirms a frame); a JSON file whose first document is
/// longer than the sniff prefix is still detected (`JSONSniff.skeleton`).
extension HostileCorpus {
    static let clarityHeader = CorpusData.text(CorpusData.clarityLines[0])

    /// Clarity rows at the given local times (`HH:MM` on 2024-03-31), values 100, 101, …
    static func clarityRows(_ times: [String], day: String = "2024-03-31") -> String {
        clarityHeader + "\n" + times.enumerated().map { i, t in "\(i + 1),\(day)T\(t):00,EGV,,,,G7,\(100 + i),,,," }
            .joined(separator: "\n") + "\n"
    }

    /// A CGM whose clock did not move forward on 2024-03-31 in Berlin: every 5 minutes from 01:00 to
    /// 04:00 on its own clock, 02:00–02:55 included (37 readings, 00:00Z–03:00Z).
    static let unswitchedClock: [String] = stride(from: 60, through: 240, by: 5).map { String(format: "%02d:%02d", $0 / 60, $0 % 60) }

    /// Imports `file` twice into the sandbox's database (Europe/Berlin); the second run must add nothing.
    static func importTwice(_ box: Sandbox, _ file: String) -> Invocation {
        let once = "$HEALTHPIPE import '\(file)' --db '\(box.db)' --timezone Europe/Berlin --quiet"
        return Invocation(arguments: ["\(once); \(once)"], shell: true)
    }

    /// The readings are `count` distinct instants `step` seconds apart from `first`, and the repeat added nothing.
    static func keptApart(count: Int, first: Int, step: Int) -> @Sendable (Sandbox) -> [String] {
        { box in
            var problems: [String] = []
            let starts = box.query("SELECT start FROM measurements ORDER BY start").compactMap { Int($0.first ?? "") }
            if starts.count != count { problems.append("\(starts.count) readings stored, expected \(count)") }
            let steps = Set(zip(starts.dropFirst(), starts).map { $0 - $1 })
            if starts.first != first || (starts.count > 1 && steps != [step]) {
                problems.append("readings from \(starts.first ?? 0) with steps \(steps), expected \(first) every \(step) s")
            }
            // Their local times (instant + stored offset) are the clock's: as far apart as the instants.
            let locals = box.query("SELECT start + utc_offset FROM measurements ORDER BY start").compactMap { Int($0.first ?? "") }
            let localSteps = Set(zip(locals.dropFirst(), locals).map { $0 - $1 })
            if locals.count > 1 && localSteps != [step] { problems.append("local times step by \(localSteps), expected \(step) s") }
            let repeat_ = box.query("SELECT new_rows, runs FROM imports")
            if repeat_ != [["0", "2"]] { problems.append("the repeat import (new_rows, runs) is \(repeat_), expected [0, 2]") }
            return problems
        }
    }

    static let heldOut: [HostileCase] = [
        HostileCase("dst-gap-reading-and-the-reading-an-hour-later-keep-their-instants",
                    Expectation(exit: 0, measurements: 4, check: keptApart(count: 4, first: 1_711_845_000, step: 3600))) { box in
            // 01:30 CET, then 02:30 (no such time: the clock had not moved), 03:30 and 04:30 on the same clock.
            importTwice(box, try box.write("gap.csv", clarityRows(["01:30", "02:30", "03:30", "04:30"])))
        },
        HostileCase("dst-gap-cgm-whose-clock-did-not-move-keeps-every-reading",
                    Expectation(exit: 0, measurements: 37, check: keptApart(count: 37, first: 1_711_843_200, step: 300))) { box in
            importTwice(box, try box.write("gap.csv", clarityRows(unswitchedClock)))
        },
        HostileCase("dst-gap-clock-set-forward-later-is-followed",
                    Expectation(exit: 0, measurements: 6, check: { box in
                        // 01:55 CET, 02:05 and 02:15 on the old clock, then the owner sets it: 03:25 CEST onwards.
                        let starts = box.query("SELECT start FROM measurements ORDER BY start").compactMap { Int($0.first ?? "") }
                        let want = [1_711_846_500, 1_711_847_100, 1_711_847_700, 1_711_848_300, 1_711_848_600, 1_711_848_900]
                        return starts == want ? [] : ["instants \(starts), expected \(want)"]
                    })) { box in
            importTwice(box, try box.write("gap.csv", clarityRows(["01:55", "02:05", "02:15", "03:25", "03:30", "03:35"])))
        },
        HostileCase("dst-gap-in-a-newest-first-file-is-quarantined-with-the-reason",
                    Expectation(exit: 3, measurements: 25,
                                quarantined: (0..<12).map { _ in .any("does not exist in Europe/Berlin (DST gap): the device clock had not moved") },
                                check: { box in
                                    let n = box.query("SELECT count(DISTINCT start) FROM measurements")
                                    return n == [["25"]] ? [] : ["distinct instants \(n), expected 25"]
                                })) { box in
            let text = clarityRows(unswitchedClock)
            var lines = text.split(separator: "\n").map(String.init)
            let header = lines.removeFirst()
            let file = try box.write("gap.csv", ([header] + lines.reversed()).joined(separator: "\n") + "\n")
            return Invocation(arguments: ["import", file, "--db", box.db, "--timezone", "Europe/Berlin"])
        },
        xmlCase("xml-rejected-record-keeps-all-its-lines",
                Expectation(exit: 3, measurements: 10, quarantined: [.line(9, "plausible range", raw: "</Record>")], check: { box in
                    let raw = box.quarantinedRows().first?["raw"] as? String ?? ""
                    let lines = raw.split(separator: "\n")
                    return lines.count == 4 && raw.contains("HKMetadataKeyBloodGlucoseMealTime") && raw.contains("value=\"0\"")
                        ? [] : ["the quarantined record is not whole: \(raw)"]
                })) {
            Data((glucose("0", close: ">") + "  <MetadataEntry key=\"HKMetadataKeyBloodGlucoseMealTime\" value=\"1\"/>\n"
                  + "  <MetadataEntry key=\"note\" value=\"after lunch\"/>\n </Record>\n").utf8)
        },
        // Issue 36: a rejected record is quarantined whole, byte for byte (it was cut at 4 KiB).
        xmlCase("xml-rejected-record-with-a-ten-kilobyte-note-is-kept-whole",
                Expectation(exit: 3, measurements: 10,
                            quarantined: [.line(9, "plausible range", raw: String(repeating: "n", count: 10_000) + "\"/>\n </Record>")],
                            rawLimit: (1 << 20) + 64, stderrLimit: 16 << 10)) {
            Data((glucose("2000", close: ">") + "  <MetadataEntry key=\"note\" value=\"\(String(repeating: "n", count: 10_000))\"/>\n </Record>\n").utf8)
        },
        HostileCase("serial-binary-hundred-stray-bytes-are-not-frames",
                    Expectation(exit: 3, quarantined: [.line(8400, "regain frame alignment", raw: "aa 55 0 0 80 3e")],
                                quarantineFile: "s.quarantine.ndjson",
                                stderr: ["motion-session        1000"],
                                writes: ["s.sqlite", "s.sqlite-wal", "s.sqlite-shm", "s.quarantine.ndjson"])) { box in
            // 1,000 frames AA 55 + 3 × float32 at 100 Hz; before frame 600, ten frames cut to 10 bytes
            // (a reconnect replaying half frames): 100 stray bytes full of markers.
            var bytes: [UInt8] = []
            func floats(_ v: [Float]) { for f in v { withUnsafeBytes(of: f.bitPattern.littleEndian) { bytes += $0 } } }
            for i in 0..<1000 {
                if i == 600 { for _ in 0..<10 { bytes += [0xAA, 0x55]; floats([0.25, 0.5]) } }
                bytes += [0xAA, 0x55]
                floats([Float(0.5 * sin(2 * Double.pi * 4 * Double(i) / 100)), 0, 1])
            }
            let path = try box.write("ble.bin", Data(bytes))
            return Invocation(arguments: ["stream", "--replay", path, "--format", "float32", "--sync", "AA55", "--rate", "100",
                                          "--start", "2026-01-05T07:30:00Z", "--db", box.path("s.sqlite"), "--timezone", "UTC"])
        },
        HostileCase("serial-binary-check-byte-keeps-a-frame-followed-by-noise",
                    Expectation(exit: 3, quarantined: [.line(4500, "regain frame alignment", raw: "ff 55 aa"),
                                                       .line(9003, "regain frame alignment", raw: "aa 55 0 0 80 3e")],
                                quarantineFile: "s.quarantine.ndjson",
                                stderr: ["motion-session        1000"],
                                writes: ["s.sqlite", "s.sqlite-wal", "s.sqlite-shm", "s.quarantine.ndjson"])) { box in
            // As above with an XOR check byte after each payload (15-byte frames), three bytes of line
            // noise after frame 299, and the ten cut frames (100 bytes) before frame 600: the check byte
            // confirms frame 299 although no marker follows it, and the cut frames fail it.
            var bytes: [UInt8] = []
            func frame(_ v: [Float]) {
                var payload: [UInt8] = []
                for f in v { withUnsafeBytes(of: f.bitPattern.littleEndian) { payload += $0 } }
                bytes += [0xAA, 0x55] + payload + [payload.reduce(0, ^)]
            }
            for i in 0..<1000 {
                if i == 600 { for _ in 0..<10 { bytes += [0xAA, 0x55]; for f: Float in [0.25, 0.5] { withUnsafeBytes(of: f.bitPattern.littleEndian) { bytes += $0 } } } }
                frame([Float(0.5 * sin(2 * Double.pi * 4 * Double(i) / 100)), 0, 1])
                if i == 299 { bytes += [0xFF, 0x55, 0xAA] }
            }
            let path = try box.write("ble.bin", Data(bytes))
            return Invocation(arguments: ["stream", "--replay", path, "--format", "float32", "--sync", "AA55", "--checksum", "xor8",
                                          "--rate", "100", "--start", "2026-01-05T07:30:00Z", "--db", box.path("s.sqlite"), "--timezone", "UTC"])
        },
        HostileCase("health-reports-json-whose-first-report-is-over-64-kb-is-detected",
                    Expectation(exit: 0, check: { box in
                        let n = box.query("SELECT count(*) FROM reports")
                        return n == [["2"]] ? [] : ["reports stored: \(n), expected 2"]
                    })) { box in
            let note = String(repeating: "a long day; ", count: 8000)  // 96 KB
            let json = "[\n{\"id\": \"r1\", \"time\": \"2024-03-01T08:00:00Z\", \"note\": \"\(note)\", \"values\": "
                + "[{\"metric\": \"body_temperature\", \"value\": 36.6, \"unit\": \"degC\", \"importance\": 2}, {\"metric\": \"blood_pressure_systolic\", \"value\": 118, \"unit\": \"mmHg\", \"importance\": 3}]},\n"
                + "{\"id\": \"r2\", \"time\": \"2024-03-02T08:00:00Z\", \"values\": [{\"metric\": \"body_temperature\", \"value\": 36.7, \"unit\": \"degC\", \"importance\": 2}, {\"metric\": \"blood_pressure_systolic\", \"value\": 118, \"unit\": \"mmHg\", \"importance\": 3}]}\n]\n"
            return Invocation(arguments: box.importing([try box.write("reports.json", json)]))
        },
        HostileCase("health-reports-json-whose-first-entry-has-a-100-kb-name-is-detected",
                    Expectation(exit: 0, events: 2)) { box in
            let name = String(repeating: "pasta ", count: 17_000)  // 102 KB
            let json = "{\"kind\": \"meal\", \"start\": \"2024-03-01T12:00:00Z\", \"carbs_g\": 60, \"name\": \"\(name)\"}\n"
                + "{\"kind\": \"insulin\", \"start\": \"2024-03-01T12:05:00Z\", \"units\": 5, \"type\": \"bolus\"}\n"
            return Invocation(arguments: box.importing([try box.write("entries.ndjson", json)]))
        },
    ]
}
