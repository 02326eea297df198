import HealthPipeCore
import Testing

@Suite struct ContentHasherTests {
    static func hash(_ bytes: [UInt8], chunks: [Int]) -> String {
        var h = ContentHasher()
        var i = 0
        var c = 0
        while i < bytes.count {
            let n = min(chunks[c % chunks.count], bytes.count - i)
            bytes[i..<(i + n)].withUnsafeBytes { h.update($0) }
            i += n
            c += 1
        }
        return h.finalize()
    }

    static let text: [UInt8] = Array((0..<1000).map { "line \($0),\($0 * 7 % 13)\n" }.joined().utf8)

    @Test func chunkingDoesNotChangeTheHash() {
        let whole = Self.hash(Self.text, chunks: [Self.text.count])
        #expect(whole.count == 16 && whole.allSatisfy { $0.isHexDigit })
        for chunks in [[1], [7], [31, 33], [32], [5, 64, 3], [4096]] {
            #expect(Self.hash(Self.text, chunks: chunks) == whole, "chunks \(chunks)")
        }
    }

    @Test func anyChangedByteLengthOrOrderChangesTheHash() {
        let base = Self.hash(Self.text, chunks: [100])
        var seen: Set<String> = [base]
        for position in [0, 1, 31, 32, 33, 5000, Self.text.count - 1] {
            var changed = Self.text
            changed[position] ^= 1
            seen.insert(Self.hash(changed, chunks: [100]))
        }
        seen.insert(Self.hash(Array(Self.text.dropLast()), chunks: [100]))
        seen.insert(Self.hash(Self.text + [0], chunks: [100]))
        var swapped = Self.text
        swapped.swapAt(0, 8)  // two lanes' words traded
        seen.insert(Self.hash(swapped, chunks: [100]))
        #expect(seen.count == 11)  // the original and 10 variants, all different
        #expect(Self.hash([], chunks: [1]) != Self.hash([0], chunks: [1]))
    }
}
