import Foundation
import Testing

/// Filter mode on the real binary through real pipes: `healthpipe run` with a `stdin` source and a
/// `stdout` sink, started with an empty environment (`env -i`), as RDD.pipe or Spark SQL TRANSFORM
/// would. Standard output carries records only; messages go to stderr; a failure never exits 0.
@Suite struct FilterModeTests {
    /// Runs `cat input | env -i healthpipe args…` through the shell: a real pipe, an empty environment
    /// (or, with `redirect`, `env -i healthpipe args… < input`: a regular file on descriptor 0).
    static func filter(_ args: [String], input: Data, redirect: Bool = false) throws -> (code: Int32, stdout: Data, stderr: String) {
        let dir = E2E.tempDir()
        let inURL = dir.appendingPathComponent("in"), outURL = dir.appendingPathComponent("out"), errURL = dir.appendingPathComponent("err")
        try input.write(to: inURL)
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = "env -i " + ([E2E.binary.path] + args).map(quote).joined(separator: " ")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", redirect ? "\(command) < \(quote(inURL.path)) > \(quote(outURL.path)) 2> \(quote(errURL.path))"
                                      : "cat \(quote(inURL.path)) | \(command) > \(quote(outURL.path)) 2> \(quote(errURL.path))"]
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, try Data(contentsOf: outURL), String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    static func pipeline(_ body: String) throws -> URL {
        let url = E2E.tempDir().appendingPathComponent("filter.yml")
        try E2E.write(body, to: url)
        return url
    }

    /// Each line of `data` as a JSON object; nil when any line is not one.
    static func records(_ data: Data) -> [[String: Any]]? {
        var out: [[String: Any]] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
            out.append(o)
        }
        return out
    }

    static let classifyFilter = """
        timezone: UTC
        subject: p1
        sources:
          in: { type: stdin }
        transforms:
          bands: { type: classify, inputs: [in], preset: consensus }
        sinks:
          out: { type: stdout, inputs: [bands] }
        """

    @Test func clarityExportThroughAPipeWithAnEmptyEnvironment() throws {
        let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv")
        let p = try Self.pipeline(Self.classifyFilter)
        for redirect in [false, true] {
            let r = try Self.filter(["run", p.path], input: try Data(contentsOf: clarity), redirect: redirect)
            #expect(r.code == 0, "\(r.stderr)")
            let records = try #require(Self.records(r.stdout), "stdout holds only JSON records")
            #expect(records.allSatisfy { $0["type"] as? String == "measurement" || $0["type"] as? String == "event" })
            // The same rows an import of the file stores, every glucose reading with its band.
            let db = E2E.tempDir().appendingPathComponent("ref.sqlite")
            #expect(try E2E.run(["import", clarity.path, "--db", db.path, "--timezone", "UTC"]).code == 0)
            #expect(records.filter { $0["type"] as? String == "measurement" }.count == E2E.count(db, "measurements"))
            #expect(records.filter { $0["type"] as? String == "event" }.count == E2E.count(db, "events"))
            #expect(records.filter { $0["metric"] as? String == "glucose" }.allSatisfy { $0["band"] != nil })
            #expect(r.stderr.contains("completed"), "the summary goes to stderr")
        }
    }

    @Test func recordsRoundTripByteForByte() throws {
        let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv")
        let p = try Self.pipeline(Self.classifyFilter)
        let first = try Self.filter(["run", p.path], input: try Data(contentsOf: clarity))
        #expect(first.code == 0 && !first.stdout.isEmpty)
        let identity = try Self.pipeline("sources:\n  in: { type: stdin }\nsinks:\n  out: { type: stdout, inputs: [in] }\n")
        for redirect in [false, true] {
            let again = try Self.filter(["run", identity.path], input: first.stdout, redirect: redirect)
            #expect(again.code == 0, "\(again.stderr)")
            #expect(again.stdout == first.stdout)
        }
        // Derived records too: daily summaries and metric sets read back and written again unchanged.
        let daily = try Self.pipeline("""
            timezone: UTC
            sources:
              in: { type: stdin }
            transforms:
              days: { type: daily, inputs: [in] }
            sinks:
              out: { type: stdout, inputs: [days], include: [daily, metrics] }
            """)
        let derived = try Self.filter(["run", daily.path], input: first.stdout)
        #expect(derived.code == 0, "\(derived.stderr)")
        let kinds = Set((Self.records(derived.stdout) ?? []).compactMap { $0["type"] as? String })
        #expect(kinds == ["daily", "metrics"])
        let back = try Self.filter(["run", identity.path], input: derived.stdout)
        #expect(back.code == 0 && back.stdout == derived.stdout)
    }

    @Test func emptyInputIsNoRecords() throws {
        let p = try Self.pipeline(Self.classifyFilter)
        let r = try Self.filter(["run", p.path], input: Data())
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func failuresNeverExitZeroAndKeepStdoutClean() throws {
        let p = try Self.pipeline(Self.classifyFilter)
        // Not any format: exit 1, nothing on stdout, the reason on stderr.
        let unknown = try Self.filter(["run", p.path], input: Data("garbage,,,\n1,2,3\n".utf8))
        #expect(unknown.code == 1)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("unknown format"))

        // A bad record among good ones: the others come out, the bad one is quarantined, exit 3.
        let good = #"{"type":"measurement","subject":"s","metric":"glucose","source":"Dexcom","start":1700000000,"utc_offset":0,"value":101,"unit":"mg/dL","file":"x","line":1}"#
        let bad = #"{"type":"measurement","subject":"s","metric":"glucose","source":"Dexcom","start":"soon","utc_offset":0,"value":5,"unit":"mg/dL"}"#
        let later = good.replacingOccurrences(of: "1700000000", with: "1700000300")
        let dir = E2E.tempDir()
        let q = dir.appendingPathComponent("bad.ndjson")
        let quarantined = try Self.pipeline("quarantine: \(q.path)\n" + Self.classifyFilter)
        let mixed = try Self.filter(["run", quarantined.path], input: Data([good, bad, later].joined(separator: "\n").utf8))
        #expect(mixed.code == 3, "\(mixed.stderr)")
        #expect(Self.records(mixed.stdout)?.count == 2)
        let dead = try String(contentsOf: q, encoding: .utf8)
        #expect(dead.contains("\"line\":2") && dead.contains("start is not a number"))

        // Under on_error: fail the same input stops the run: exit 1.
        let strict = try Self.pipeline(Self.classifyFilter.replacingOccurrences(of: "{ type: stdin }", with: "{ type: stdin, on_error: fail }"))
        let stopped = try Self.filter(["run", strict.path], input: Data([good, bad, later].joined(separator: "\n").utf8))
        #expect(stopped.code == 1)
    }

    @Test func forcedFormatAndItsOptions() throws {
        let libre = E2E.samples.appendingPathComponent("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")
        let p = try Self.pipeline("""
            sources:
              in: { type: stdin, format: libreview, timezone: Europe/Berlin, subject: lib }
            sinks:
              out: { type: stdout, inputs: [in] }
            """)
        let r = try Self.filter(["run", p.path], input: try Data(contentsOf: libre))
        #expect(r.code == 0, "\(r.stderr)")
        let records = try #require(Self.records(r.stdout))
        #expect(!records.isEmpty && records.allSatisfy { $0["subject"] as? String == "lib" })
        let wrong = try Self.pipeline("sources:\n  in: { type: stdin, format: librevue }\nsinks:\n  out: { type: stdout, inputs: [in] }\n")
        let e = try Self.filter(["run", wrong.path], input: Data())
        #expect(e.code == 2 && e.stderr.contains("did you mean 'libreview'"))
    }
}
