import Foundation
import Testing

/// The `ndjson` sink with `partition_by: subject`: Hive-style parts named after their source, a
/// deterministic id on every record, one manifest line per output, and parts that a re-run or a
/// retried task replaces — never appends to — while a failed or killed run leaves them as they were.
@Suite struct PartitionedOutputTests {
    static func pipeline(in dir: URL, sources: [(name: String, file: String, subject: String)], daily: Bool = true) throws -> URL {
        var yaml = "timezone: UTC\nsources:\n"
        for s in sources { yaml += "  \(s.name): { type: dexcom-clarity, path: \(s.file), subject: \"\(s.subject)\" }\n" }
        yaml += "transforms:\n  bands: { type: classify, inputs: [\(sources.map(\.name).joined(separator: ", "))] }\n"
        if daily { yaml += "  days: { type: daily, inputs: [bands] }\n" }
        yaml += "sinks:\n  out: { type: ndjson, inputs: [bands\(daily ? ", days" : "")], path: out, partition_by: subject }\n"
        let url = dir.appendingPathComponent("p.yml")
        try E2E.write(yaml, to: url)
        return url
    }

    /// Every visible file under `dir` (relative path → bytes); hidden names (temporary files) apart.
    static func files(_ dir: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        guard let e = FileManager.default.enumerator(atPath: dir.path) else { return out }
        while let rel = e.nextObject() as? String {
            let url = dir.appendingPathComponent(rel)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue,
                  !url.lastPathComponent.hasPrefix(".") else { continue }
            out[rel] = try? Data(contentsOf: url)
        }
        return out
    }

    static func hidden(_ dir: URL) -> [String] {
        (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []).filter {
            URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".")
        }
    }

    static func sha256(_ url: URL) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [url.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return String(text.prefix(64))
    }

    static func lines(_ data: Data) -> [[String: Any]] {
        data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
    }

    @Test func layoutIdsAndManifest() throws {
        let dir = E2E.tempDir()
        _ = try ScaleFixtures.clarity("a.csv", participant: 1, readings: 30, in: dir)
        _ = try ScaleFixtures.clarity("b.csv", participant: 2, readings: 30, in: dir)
        _ = try ScaleFixtures.clarity("c.csv", participant: 3, readings: 30, in: dir)
        let p = try Self.pipeline(in: dir, sources: [("a", "a.csv", "P/1"), ("b", "b.csv", "P2"), ("c", "c.csv", "P2")])
        let r = try E2E.run(["run", p.path])
        #expect(r.code == 0, "\(r.stderr)")
        let out = dir.appendingPathComponent("out")
        let all = Self.files(out)
        let part = { (name: String) in "part-" + String(ScaleFixtures.fnv1a64Hex(name)) + ".ndjson" }
        let run = part("a.csv\nb.csv\nc.csv")
        // Readings by input file, derived records by the run's inputs; the subject escaped as Spark escapes it.
        let expected: Set<String> = [
            "measurements/subject=P%2F1/\(part("a.csv"))", "measurements/subject=P2/\(part("b.csv"))",
            "measurements/subject=P2/\(part("c.csv"))",
            "daily/subject=P%2F1/\(run)", "daily/subject=P2/\(run)", "metrics/subject=P%2F1/\(run)", "metrics/subject=P2/\(run)",
            "_manifests/\(run)",
        ]
        #expect(Set(all.keys) == expected)
        // Every record has a 32-hex id, unique within its table.
        var ids = Set<String>()
        for (path, data) in all where path.hasPrefix("measurements/") {
            for rec in Self.lines(data) {
                let id = try #require(rec["id"] as? String)
                #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
                #expect(ids.insert(id).inserted)
            }
        }
        #expect(ids.count == 90)
        // One manifest line per output: rows and sha256 of the file as written.
        let manifest = Self.lines(all["_manifests/\(run)"]!)
        #expect(manifest.count == expected.count - 1)
        for line in manifest {
            let output = try #require(line["output"] as? String)
            let data = try #require(all[output])
            #expect(line["rows"] as? Int == Self.lines(data).count)
            #expect(line["sha256"] as? String == (try Self.sha256(out.appendingPathComponent(output))))
            #expect((line["input"] as? String)?.contains(".csv") == true)
        }
        #expect(Self.hidden(out).isEmpty, "no temporary files left")
    }

    @Test func rerunReplacesAndFailedRunLeavesPartsAsTheyWere() throws {
        let dir = E2E.tempDir()
        let a = try ScaleFixtures.clarity("a.csv", participant: 1, readings: 40, in: dir)
        let p = try Self.pipeline(in: dir, sources: [("a", "a.csv", "P1")])
        let out = dir.appendingPathComponent("out")
        #expect(try E2E.run(["run", p.path]).code == 0)
        let first = Self.files(out)
        #expect(try E2E.run(["run", p.path]).code == 0)
        #expect(Self.files(out) == first, "a re-run writes the same parts, replacing them")

        // The input grows (a newer export under the same name): its part is replaced, not appended to.
        _ = try ScaleFixtures.clarity("a.csv", participant: 1, readings: 50, in: dir)
        #expect(try E2E.run(["run", p.path]).code == 0)
        let grown = Self.files(out)
        #expect(Set(grown.keys) == Set(first.keys))
        let measurements = grown.first { $0.key.hasPrefix("measurements/") }!.value
        #expect(Self.lines(measurements).count == 50)

        // A run that fails (a bad row under on_error: fail, after good ones) changes nothing.
        var text = try String(contentsOf: a, encoding: .utf8)
        text += "99,2024-03-09T00:00:00,EGV,,,,iOS G6,not-a-number,,,,,1,8ABCDE\n"
        try E2E.write(text, to: a)
        let strict = try String(contentsOf: p, encoding: .utf8).replacingOccurrences(of: "subject: \"P1\" }", with: "subject: \"P1\", on_error: fail }")
        try E2E.write(strict, to: p)
        let failed = try E2E.run(["run", p.path])
        #expect(failed.code == 1)
        #expect(Self.files(out) == grown)
        #expect(Self.hidden(out).isEmpty)
    }

    /// Two sources of one subject in one part (`source_id`): the part is put together in the inputs'
    /// order, so the bytes do not depend on how the sources' threads interleaved. (Daily summaries of
    /// such a run follow the order readings arrived in, to the last digit: readings only here.)
    @Test func partsOfSeveralSourcesAreTheSameBytesEveryRun() throws {
        let dir = E2E.tempDir()
        _ = try ScaleFixtures.clarity("a.csv", participant: 1, readings: 4000, in: dir)
        _ = try ScaleFixtures.clarity("b.csv", participant: 2, readings: 4000, in: dir)
        let p = try Self.pipeline(in: dir, sources: [("a", "a.csv", "P1"), ("b", "b.csv", "P1")], daily: false)
        try E2E.write(try String(contentsOf: p, encoding: .utf8).replacingOccurrences(of: "partition_by: subject }",
                                                                                  with: "partition_by: subject, source_id: P1 }"), to: p)
        var runs: [[String: Data]] = []
        for _ in 0..<3 {
            #expect(try E2E.run(["run", p.path]).code == 0)
            runs.append(Self.files(dir.appendingPathComponent("out")))
        }
        let measurements = runs[0].filter { $0.key.hasPrefix("measurements/") }
        #expect(measurements.count == 1 && Self.lines(measurements.first!.value).count == 8000)
        #expect(runs[1] == runs[0] && runs[2] == runs[0])
    }

    @Test func killedRunLeavesOldPartsAndTheRetryMatchesACleanRun() throws {
        let dir = E2E.tempDir()
        let big = try CrashConsistencyTests.generate(rows: 60_000, into: dir)
        try FileManager.default.moveItem(at: big, to: dir.appendingPathComponent("big.csv"))
        let p = try Self.pipeline(in: dir, sources: [("a", "big.csv", "P1")], daily: false)
        let out = dir.appendingPathComponent("out")
        // The previous good state: a smaller export under the same name.
        let full = try Data(contentsOf: dir.appendingPathComponent("big.csv"))
        try full.prefix(200_000).split(separator: UInt8(ascii: "\n")).dropLast().map { Data($0) }
            .reduce(into: Data()) { $0 += $1 + Data("\n".utf8) }.write(to: dir.appendingPathComponent("big.csv"))
        #expect(try E2E.run(["run", p.path]).code == 0)
        let before = Self.files(out)
        try full.write(to: dir.appendingPathComponent("big.csv"))

        let proc = Process()
        proc.executableURL = E2E.binary
        proc.arguments = ["run", p.path]
        proc.standardError = FileHandle.nullDevice
        try proc.run()
        let deadline = Date().addingTimeInterval(60)
        // Kill once the new measurements part is being written (its temporary file exists).
        while proc.isRunning, Date() < deadline, !Self.hidden(out).contains(where: { $0.hasPrefix("measurements/") }) {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let killedMidway = proc.isRunning
        kill(proc.processIdentifier, SIGKILL)
        proc.waitUntilExit()
        #expect(killedMidway, "the run finished before it could be killed")
        #expect(Self.files(out) == before, "a killed run changes no part")

        #expect(try E2E.run(["run", p.path]).code == 0)
        let retried = Self.files(out)
        let clean = dir.appendingPathComponent("clean")
        try FileManager.default.createDirectory(at: clean, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("big.csv"), to: clean.appendingPathComponent("big.csv"))
        let q = try Self.pipeline(in: clean, sources: [("a", "big.csv", "P1")], daily: false)
        #expect(try E2E.run(["run", q.path]).code == 0)
        let reference = Self.files(clean.appendingPathComponent("out"))
        #expect(Set(retried.keys) == Set(reference.keys))
        for (k, v) in reference where !k.hasPrefix("_manifests") && !k.hasPrefix("measurements") && !k.hasPrefix("events") {
            #expect(retried[k] == v, "\(k)")
        }
        // Readings carry their file's path; apart from it the parts are the same, each record once.
        for k in reference.keys where k.hasPrefix("measurements") {
            let ids = Self.lines(retried[k]!).compactMap { $0["id"] as? String }
            #expect(ids.count == 60_000 && Set(ids).count == ids.count)
            #expect(ids == Self.lines(reference[k]!).compactMap { $0["id"] as? String })
        }
    }
}
