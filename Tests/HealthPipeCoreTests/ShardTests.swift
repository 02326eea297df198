import HealthPipeCore
import Testing

@Suite struct ShardTests {
    /// The published FNV-1a 64 test vectors: the hash is the documented one, on every machine.
    @Test func stableHashIsFNV1a64() {
        #expect(StableHash.fnv1a64("") == 0xCBF2_9CE4_8422_2325)
        #expect(StableHash.fnv1a64("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(StableHash.fnv1a64("foobar") == 0x8594_4171_F739_67E8)
        #expect(StableHash.hex(0xAF63_DC4C_8601_EC8C) == "af63dc4c8601ec8c")
        #expect(StableHash.hex(1) == "0000000000000001")
        // MurmurHash3 fmix64 of 1 (a published constant pair), and the shard hash of "a".
        #expect(StableHash.fmix64(1) == 0xB456_BCFC_34C2_CB2C)
        #expect(Shard.of(id: "a", count: 1_000_003) == Int(StableHash.fmix64(0xAF63_DC4C_8601_EC8C) % 1_000_003))
    }

    @Test func parsesIndexOfCount() throws {
        #expect(try Shard.parse("0/1").get() == Shard(index: 0, count: 1))
        #expect(try Shard.parse("3/4").get() == Shard(index: 3, count: 4))
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] {
            #expect(throws: ShardError.self) { try Shard.parse(bad).get() }
        }
    }

    @Test func idIsSubjectElseBaseName() {
        #expect(Shard.id(path: "/data/site-a/P001.csv", subject: nil) == "P001.csv")
        #expect(Shard.id(path: "P001.csv", subject: "alice") == "alice")
        #expect(Shard.id(path: "-", subject: nil) == "-")
    }

    @Test func everyIdFallsInExactlyOneShard() {
        let ids = (1...200).map { "P" + String(1000 + $0).dropFirst() }
        for n in [1, 2, 3, 4, 7, 8] {
            let shards = (0..<n).map { Shard(index: $0, count: n) }
            for id in ids { #expect(shards.filter { $0.contains(id: id) }.count == 1) }
            // Spread evenly enough: no shard gets less than half its share (FNV-1a alone fails this for n = 2, 4).
            for s in 0..<n { #expect(ids.filter { Shard.of(id: $0, count: n) == s }.count * 2 * n >= ids.count) }
        }
    }

    @Test func shardedPipelineKeepsItsSourcesAndWhatTheyFeed() throws {
        let yaml = """
            sources:
              a: { type: dexcom-clarity, path: in/a.csv }
              b: { type: dexcom-clarity, path: in/b.csv }
              c: { type: dexcom-clarity, path: in/c.csv, subject: carol }
            transforms:
              onlyA: { type: classify, inputs: [a] }
              both: { type: classify, inputs: [a, b, c] }
            sinks:
              outA: { type: ndjson, inputs: [onlyA], path: a.ndjson }
              outAll: { type: ndjson, inputs: [both], path: all.ndjson }
            """
        let spec = try PipelineSpec(document: ConfigDocument(file: "p.yml", text: yaml))
        let n = 5
        var seen: [String] = []
        for i in 0..<n {
            let part = try spec.sharded(Shard(index: i, count: n), subject: nil)
            seen += part.kept
            let names = Set(part.spec.stages.map(\.name))
            #expect(names.contains("onlyA") == part.kept.contains("a"))
            #expect(names.contains("outA") == part.kept.contains("a"))
            #expect(names.contains("both") == !part.kept.isEmpty)
            if let both = part.spec.stages.first(where: { $0.name == "both" }) { #expect(both.inputs == part.kept) }
        }
        #expect(seen.sorted() == ["a", "b", "c"])
        // The ids: base names, and the source's own subject.
        let expected = ["a": "a.csv", "b": "b.csv", "c": "carol"].mapValues { Shard.of(id: $0, count: n) }
        for (name, shard) in expected {
            #expect(try spec.sharded(Shard(index: shard, count: n), subject: nil).kept.contains(name))
        }
        // A subject for the whole run puts every source without its own in one shard.
        let withSubject = (0..<n).map { try! spec.sharded(Shard(index: $0, count: n), subject: "bob").kept }
        #expect(withSubject[Shard.of(id: "bob", count: n)].contains("a") && withSubject[Shard.of(id: "bob", count: n)].contains("b"))
    }
}

@Suite struct DigestTests {
    func sha(_ text: String) -> String {
        var s = SHA256()
        s.update(Array(text.utf8))
        return s.finalize()
    }

    /// FIPS 180-4 examples, and a digest fed in uneven pieces equals the one fed whole.
    @Test func sha256MatchesTheStandard() {
        #expect(sha("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(sha("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var pieces = SHA256()
        var i = 0, step = 1
        while i < million.count {
            let n = min(step, million.count - i)
            million[i..<(i + n)].withUnsafeBytes { pieces.update($0) }
            i += n
            step = step * 3 % 997 + 1
        }
        #expect(pieces.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// FNV-1a 128's published vectors.
    @Test func fnv1a128MatchesTheReference() {
        #expect(StableHash.hex128(StableHash.fnv1a128(Array("".utf8))) == "6c62272e07bb014262b821756295c58d")
        #expect(StableHash.hex128(StableHash.fnv1a128(Array("a".utf8))) == "d228cb696f1a8caf78912b704e4a8964")
    }
}
