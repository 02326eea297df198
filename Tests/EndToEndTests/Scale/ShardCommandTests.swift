import Foundation
import Testing

/// `--shard i/n` on the real binary: every file lands in exactly one shard, decided by the documented
/// hash of its id (the subject when given, else its base name), whatever the order or folder of the list.
@Suite struct ShardCommandTests {
    func importedNames(_ db: URL) -> Set<String> {
        guard FileManager.default.fileExists(atPath: db.path) else { return [] }
        return Set(E2E.query(db, "SELECT path FROM imports").map { URL(fileURLWithPath: $0[0]).lastPathComponent })
    }

    @Test func importSplitsFilesByNameAcrossShards() throws {
        let dir = E2E.tempDir()
        let names = (1...9).map { "P\($0 < 10 ? "0" : "")\($0).csv" }
        let files = try names.enumerated().map { try ScaleFixtures.clarity($1, participant: $0, in: dir) }
        let n = 3
        var union = Set<String>()
        for i in 0..<n {
            let db = dir.appendingPathComponent("shard-\(i).sqlite")
            let r = try E2E.run(["import"] + files.map(\.path) + ["--db", db.path, "--timezone", "UTC", "--shard", "\(i)/\(n)"])
            #expect(r.code == 0, "\(r.stderr)")
            #expect(r.stdout.isEmpty)
            let got = importedNames(db)
            #expect(got == Set(names.filter { ScaleFixtures.shard(of: $0, count: n) == i }), "shard \(i)/\(n)")
            #expect(union.isDisjoint(with: got))
            union.formUnion(got)
            #expect(E2E.count(db, "measurements") == got.count * 6)
        }
        #expect(union == Set(names))
        #expect(Set(names.map { ScaleFixtures.shard(of: $0, count: n) }).count > 1, "the fixture should spread over shards")

        // Another folder, the list reversed: the same split.
        let other = dir.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        var moved: [String] = []
        for f in files.reversed() {
            let to = other.appendingPathComponent(f.lastPathComponent)
            try FileManager.default.copyItem(at: f, to: to)
            moved.append(to.path)
        }
        let db = other.appendingPathComponent("again.sqlite")
        #expect(try E2E.run(["import"] + moved + ["--db", db.path, "--timezone", "UTC", "--shard", "1/3"]).code == 0)
        #expect(importedNames(db) == importedNames(dir.appendingPathComponent("shard-1.sqlite")))
    }

    @Test func subjectIsTheIdAndEmptyShardsDoNothing() throws {
        let dir = E2E.tempDir()
        let files = try (0..<3).map { try ScaleFixtures.clarity("f\($0).csv", participant: $0, in: dir).path }
        let n = 4
        let home = ScaleFixtures.shard(of: "alice", count: n)
        for i in 0..<n {
            let db = dir.appendingPathComponent("s\(i).sqlite")
            let r = try E2E.run(["import"] + files + ["--db", db.path, "--timezone", "UTC", "--subject", "alice", "--shard", "\(i)/\(n)"])
            #expect(r.code == 0, "\(r.stderr)")
            if i == home {
                #expect(importedNames(db).count == 3)
            } else {
                #expect(!FileManager.default.fileExists(atPath: db.path), "shard \(i) has nothing and must write nothing")
                #expect(r.stderr.contains("0 of 3 files"))
            }
        }
    }

    @Test func malformedShardIsAConfigurationError() throws {
        let dir = E2E.tempDir()
        let f = try ScaleFixtures.clarity("a.csv", participant: 1, in: dir)
        for bad in ["3/3", "1", "x/2", "0/0"] {
            let r = try E2E.run(["import", f.path, "--db", dir.appendingPathComponent("x.sqlite").path, "--timezone", "UTC", "--shard", bad])
            #expect(r.code == 2 && r.stderr.contains("--shard"), "\(bad): \(r.stderr)")
        }
    }

    @Test func runKeepsTheShardsSourcesAndTheSinksTheyFeed() throws {
        let dir = E2E.tempDir()
        let names = ["alpha.csv", "bravo.csv", "charlie.csv", "delta.csv"]
        for (i, name) in names.enumerated() { _ = try ScaleFixtures.clarity(name, participant: i, in: dir) }
        var yaml = "timezone: UTC\nsources:\n"
        for (i, name) in names.enumerated() { yaml += "  s\(i): { type: dexcom-clarity, path: \(name) }\n" }
        yaml += "sinks:\n"
        for i in names.indices { yaml += "  out\(i): { type: ndjson, inputs: [s\(i)], path: out/\(i).ndjson }\n" }
        yaml += "  all: { type: ndjson, inputs: [\(names.indices.map { "s\($0)" }.joined(separator: ", "))], path: \"out/all-${SHARD}.ndjson\" }\n"
        let pipeline = dir.appendingPathComponent("p.yml")
        try E2E.write(yaml, to: pipeline)
        let n = 2
        var total = 0
        for i in 0..<n {
            let r = try E2E.run(["run", pipeline.path, "--shard", "\(i)/\(n)"], env: ["SHARD": "\(i)"])
            #expect(r.code == 0, "\(r.stderr)")
            let mine = names.indices.filter { ScaleFixtures.shard(of: names[$0], count: n) == i }
            for j in names.indices {
                let exists = FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/\(j).ndjson").path)
                if mine.contains(j) { #expect(exists) }
            }
            let all = try String(contentsOf: dir.appendingPathComponent("out/all-\(i).ndjson"), encoding: .utf8)
            let lines = all.split(separator: "\n").count
            #expect(lines == mine.count * 6)
            total += lines
        }
        #expect(total == names.count * 6)
        // Each per-source sink was written by exactly its own shard (run the shards into fresh folders to see it).
        let fresh = E2E.tempDir()
        try FileManager.default.copyItem(at: pipeline, to: fresh.appendingPathComponent("p.yml"))
        for name in names { try FileManager.default.copyItem(at: dir.appendingPathComponent(name), to: fresh.appendingPathComponent(name)) }
        let r = try E2E.run(["run", fresh.appendingPathComponent("p.yml").path, "--shard", "0/\(n)"], env: ["SHARD": "0"])
        #expect(r.code == 0)
        for j in names.indices {
            let exists = FileManager.default.fileExists(atPath: fresh.appendingPathComponent("out/\(j).ndjson").path)
            #expect(exists == (ScaleFixtures.shard(of: names[j], count: n) == 0), "out/\(j).ndjson")
        }
    }
}
