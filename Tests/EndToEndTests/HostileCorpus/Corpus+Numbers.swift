import Foundation

/// Issue 36, numbers at the boundary: every number read from a flag, a pipeline option or a source
/// passes its `NumberRule` (Core) before any arithmetic, so 1e308, Int.min, nan or inf are a usage
/// error naming the flag or option (exit 2), or a quarantined document — never a trap.
extension HostileCorpus {
    /// A replay capture of three text samples (the flag under test fails before it is read).
    static func capture(_ box: Sandbox) throws -> String {
        try box.write("cap.csv", "0.1,0.2,0.9\n0.1,0.2,0.9\n\n0.1,0.2,0.9\n")
    }

    /// `stream --replay cap.csv <flag> <value>`: refused naming the flag, nothing written.
    static func streamFlag(_ flag: String, _ value: String) -> HostileCase {
        HostileCase("stream-\(flag)-\(value)-is-a-usage-error",
                    Expectation(exit: 2, noDatabase: true, stderr: [flag], stderrNot: ["Fatal"], writes: ["cap.csv"])) { box in
            Invocation(arguments: ["stream", "--replay", try capture(box), "--start", "2026-01-05T07:30:00Z", "\(flag)=\(value)"])
        }
    }

    /// `validate` of a pipeline whose one option is `value`: refused naming the option.
    static func pipelineOption(_ name: String, _ yaml: String) -> HostileCase {
        HostileCase("pipeline-\(name)-is-refused-by-validate",
                    Expectation(exit: 2, noDatabase: true, stderr: [name.components(separatedBy: "-").first!], stderrNot: ["Fatal"],
                                writes: ["p.yml", "cap.csv", "in.csv"])) { box in
            _ = try capture(box)
            _ = try box.write("in.csv", CorpusData.clarity)
            return Invocation(arguments: ["validate", try box.write("p.yml", yaml)])
        }
    }

    static func imuPipeline(_ option: String, _ value: String) -> String {
        """
        sources:
          imu: { type: serial-imu, path: cap.csv, \(option): \(value) }
        transforms:
          sessions: { type: motion-session, inputs: [imu] }
        sinks:
          bar: { type: session-bar, inputs: [sessions] }

        """
    }

    static func gridPipeline(_ type: String, _ value: String) -> String {
        """
        sources:
          cgm: { type: dexcom-clarity, path: in.csv }
        transforms:
          grid: { type: \(type), inputs: [cgm], max_gap_minutes: \(value) }
        sinks:
          out: { type: ndjson, path: out.ndjson, inputs: [grid] }

        """
    }

    static let numbers: [HostileCase] = [
        streamFlag("--gesture-gap", "1e308"), streamFlag("--gesture-gap", "inf"), streamFlag("--gesture-gap", "9223372036854775807"),
        streamFlag("--gesture-gap", "nan"), streamFlag("--gesture-gap", "-inf"), streamFlag("--gesture-gap", "-1"),
        streamFlag("--exit-idle", "1e308"), streamFlag("--exit-idle", "inf"), streamFlag("--exit-idle", "9223372036854775807"),
        streamFlag("--silence", "1e308"), streamFlag("--silence", "inf"), streamFlag("--silence", "9223372036854775807"),
        streamFlag("--silence", "nan"), streamFlag("--silence", "-inf"), streamFlag("--silence", "-1"),
        streamFlag("--rate", "1e-320"), streamFlag("--int16-scale", "nan"),
        HostileCase("history-year-offset-int-min-is-a-usage-error",
                    Expectation(exit: 2, stderr: ["--offset"], stderrNot: ["Fatal"])) { box in
            _ = try storedClarity(box)  // a store, so the old code reached the offset
            return Invocation(arguments: ["history", "--db", box.db, "--period", "year", "--offset=-9223372036854775808"])
        },
        HostileCase("chart-history-offset-int-min-is-a-usage-error",
                    Expectation(exit: 2, stderr: ["--offset"], stderrNot: ["Fatal"])) { box in
            _ = try storedClarity(box)  // a store, so the old code reached the offset
            return Invocation(arguments: ["chart", "history", "--db", box.db, "--offset=-9223372036854775808"])
        },
        pipelineOption("silence", imuPipeline("silence", "1e308")),
        pipelineOption("exit_after_idle", imuPipeline("exit_after_idle", "1e308")),
        pipelineOption("gesture_gap", imuPipeline("gesture_gap", "1e308")),
        pipelineOption("reconnect_max_delay", imuPipeline("reconnect_max_delay", "1e308")),
        pipelineOption("int16_scale-nan", imuPipeline("int16_scale", "nan")),
        pipelineOption("max_gap_minutes-resample", gridPipeline("resample", "9223372036854775807")),
        pipelineOption("max_gap_minutes-daily", gridPipeline("daily", "9223372036854775807")),
        HostileCase("alerts-threshold-days-1e30-names-the-field",
                    Expectation(exit: 2, stderr: ["days", "1e+30", "1–366"], stderrNot: ["Fatal"])) { box in
            _ = try storedClarity(box)
            return Invocation(arguments: ["alerts", "set", "--db", box.db, "--threshold", "body_temperature above 37.8 days=1e30"])
        },
        HostileCase("health-reports-json-dated-2099-is-refused-as-a-typed-one-is",
                    Expectation(exit: 3, quarantined: [.line(2, "more than a day in the future", raw: "2099-03-05")])) { box in
            let text = """
                [{"id": "a", "time": "2024-03-05T20:00:00+01:00", "values": [{"metric": "pain", "value": 3, "importance": 3}, {"metric": "mood", "value": 4, "importance": 2}]},
                {"id": "b", "time": "2099-03-05T20:00:00+01:00", "values": [{"metric": "pain", "value": 4, "importance": 3}, {"metric": "mood", "value": 3, "importance": 2}]}]

                """
            return Invocation(arguments: box.importing([try box.write("r.json", text)]))
        },
        // The same rule for every instant a person writes: a CSV report, and an episode's end in either file.
        HostileCase("health-reports-csv-dated-2099-is-refused-as-a-typed-one-is",
                    Expectation(exit: 3, quarantined: [.line(4, "more than a day in the future", raw: "2099-03-05")])) { box in
            let text = """
                time,metric,value,unit,importance,note
                2024-03-05 08:00,pain,3,,3,
                2024-03-05 08:00,mood,4,,2,
                2099-03-05 08:00,pain,4,,3,

                """
            return Invocation(arguments: box.importing([try box.write("r.csv", text)]))
        },
        HostileCase("health-reports-json-illness-ending-2099-is-refused",
                    Expectation(exit: 3, quarantined: [.line(2, "end 2099-03-05", raw: "2099-03-05")])) { box in
            let text = """
                [{"kind": "illness", "start": "2024-03-05T20:00:00+01:00", "end": "2024-03-07T20:00:00+01:00"},
                {"kind": "illness", "start": "2024-03-08T20:00:00+01:00", "end": "2099-03-05T20:00:00+01:00"}]

                """
            return Invocation(arguments: box.importing([try box.write("e.json", text)]))
        },
        HostileCase("chart-report-values-of-a-store-holding-1.7e308-is-drawn",
                    Expectation(exit: 0, stderrNot: ["Fatal"], writes: Sandbox.defaultOutputs.union(["r.json", "o.svg"]),
                                check: { box in
                                    let svg = (try? String(contentsOfFile: box.path("o.svg"), encoding: .utf8)) ?? ""
                                    return svg.contains("</svg>") ? [] : ["no SVG written"]
                                })) { box in
            // A store as an older build left it: values no health value may have (HealthValues.customLimit).
            let text = """
                [{"id": "a", "time": "2024-03-05T20:00:00+01:00", "values": [{"metric": "custom_x", "value": 5, "importance": 3}, {"metric": "pain", "value": 3, "importance": 3}]},
                {"id": "b", "time": "2024-03-06T21:00:00+01:00", "values": [{"metric": "custom_x", "value": 6, "importance": 3}, {"metric": "pain", "value": 3, "importance": 3}]}]

                """
            _ = try HostileRunner.launch(Invocation(arguments: box.importing([try box.write("r.json", text)], ["--quiet"])))
            try box.execute("""
                UPDATE report_values SET value = 1.7e308 WHERE report_id = 'a' AND metric = 'custom_x';
                UPDATE report_values SET value = -1.7e308 WHERE report_id = 'b' AND metric = 'custom_x';
                """)
            return Invocation(arguments: ["chart", "report-values", "--db", box.db, "--metric", "custom_x", "--date", "2024-03-06",
                                          "--svg", box.path("o.svg")])
        },
        HostileCase("nightscout-date-0-is-a-missing-date-quarantined-with-its-document",
                    Expectation(exit: 3, measurements: 1, quarantined: [.line(3, "unreadable date '0'", raw: "\"sgv\": 128")])) { box in
            let text = "[\n{\"date\": 1775421029000, \"type\": \"sgv\", \"sgv\": 162},\n{\"date\": 0, \"type\": \"sgv\", \"sgv\": 128}\n]\n"
            return Invocation(arguments: box.importing([try box.write("ns.json", text)]))
        },
    ]
}
