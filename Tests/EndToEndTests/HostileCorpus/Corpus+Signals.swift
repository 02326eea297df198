import Foundation

/// Inputs that never end or never arrive: SIGTERM is honoured within a second, what was read is
/// committed, and the run says it was interrupted (exit 1).
extension HostileCorpus {
    /// Issue 36: a forced text format refuses binary data at once (it read /dev/zero for ever); the
    /// SIGTERM after 8 s would make it say "interrupted" if it did not.
    static let devZero: [HostileCase] = ["dexcom-clarity", "libreview", "mylife", "medtronic-carelink", "health-reports", "nightscout",
                                         "ndjson-source", "health-reports-json", "tidepool", "apple-health"].map { format in
        HostileCase("dev-zero-forced-as-\(format)-is-refused-as-binary",
                    Expectation(exit: 1, stderr: ["/dev/zero", "binary data (NUL bytes)"], stderrNot: ["interrupted"])) { box in
            Invocation(arguments: box.importing(["/dev/zero"], ["--format", format]), terminateAfter: 8)
        }
    }

    /// An endless line of text (no NUL, no line end) is given up after 64 MiB, not read for ever —
    /// nor copied for ever (LibreView reads a stream twice, from a temporary copy).
    static let endlessLines: [HostileCase] = ["dexcom-clarity", "libreview"].map { format in
        HostileCase("an-endless-line-on-standard-input-forced-as-\(format)-is-refused",
                    Expectation(exit: 1, stderr: ["runs past 64 MiB without a line end"], stderrNot: ["interrupted"])) { box in
            Invocation(arguments: ["yes 0123456789abcdef | tr -d '\\n' | exec $HEALTHPIPE"]
                           + box.importing(["-"], ["--format", format]), terminateAfter: 20, shell: true)
        }
    }

    static let signals: [HostileCase] = devZero + endlessLines + [
        HostileCase("silent-fifo-stops-on-sigterm", Expectation(exit: 1, stderr: ["interrupted"], stopWithin: 1.0)) { box in
            mkfifo(box.path("silent.csv"), 0o644)
            // A writer that opens the FIFO and never writes: the read blocks without the poll.
            return Invocation(arguments: ["(exec 3>\(box.path("silent.csv")); sleep 6) &", "exec $HEALTHPIPE"]
                                  + box.importing([box.path("silent.csv")], ["--format", "dexcom-clarity"]),
                              terminateAfter: 1.5, shell: true)
        },
        HostileCase("silent-fifo-apple-xml-stops-on-sigterm", Expectation(exit: 1, stderr: ["interrupted"], stopWithin: 1.0)) { box in
            mkfifo(box.path("silent.xml"), 0o644)
            return Invocation(arguments: ["(exec 3>\(box.path("silent.xml")); sleep 6) &", "exec $HEALTHPIPE"]
                                  + box.importing([box.path("silent.xml")], ["--format", "apple-health"]),
                              terminateAfter: 1.5, shell: true)
        },
        HostileCase("sigterm-during-a-large-import-commits-what-was-read",
                    Expectation(exit: 1, stderr: ["interrupted"], stopWithin: 1.0,
                                check: { box in
                                    let n = box.count("measurements") ?? 0
                                    return n > 0 && n < 400_000 ? [] : ["\(n) rows committed; expected a consistent part"]
                                })) { box in
            var text = CorpusData.text(CorpusData.clarityLines[0]) + "\n"
            for i in 0..<400_000 {
                let t = 1_700_000_000 + i * 300
                let d = Date(timeIntervalSince1970: Double(t))
                let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: d)
                text += String(format: "%d,%04d-%02d-%02dT%02d:%02d:00,EGV,,,,G7,%d,,,,\n", i, c.year!, c.month!, c.day!, c.hour!, c.minute!, 80 + i % 100)
            }
            return Invocation(arguments: box.importing([try box.write("big.csv", text)]), terminateAfter: 1.0)
        },
    ]

    /// A serial capture whose stream clock jumps by 10^15 ms for one sample: the sample is
    /// quarantined and both sessions keep their full length.
    static let streams: [HostileCase] = [
        HostileCase("serial-timestamp-jump-does-not-truncate-the-session",
                    Expectation(exit: 3, quarantined: [.line(1001, "plausible date"), .line(1002, ""), .any("")],
                                quarantineFile: "brushing.quarantine.ndjson",
                                writes: ["brushing.sqlite", "brushing.sqlite-wal", "brushing.sqlite-shm", "brushing.quarantine.ndjson"],
                                check: { box in
                                    let rows = E2E.query(URL(fileURLWithPath: box.path("brushing.sqlite")),
                                                         "SELECT time, end_reason, round(duration_s) FROM motion_sessions ORDER BY start")
                                    return rows == [["07:30:05", "idle", "40.0"], ["07:31:00", "idle", "25.0"]] ? [] : ["sessions: \(rows)"]
                                })) { box in
            let capture = E2E.samples.appendingPathComponent("imu/brushing_stream_tms.csv")
            var (lines, ending) = try CorpusData.lines(capture)
            var cells = lines[1000].components(separatedBy: ",")
            cells[0] = String(Int64(cells[0])! + 1_000_000_000_000_000)
            lines[1000] = cells.joined(separator: ",")
            let path = try box.write("capture.csv", lines.joined(separator: ending))
            return Invocation(arguments: ["stream", "--replay", path, "--start", "2026-01-05T07:30:00Z", "--db", box.path("brushing.sqlite"),
                                          "--timezone", "UTC"])
        },
    ]
}
