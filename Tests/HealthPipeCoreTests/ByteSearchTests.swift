import HealthPipeCore
import Testing

@Suite struct ByteSearchTests {
    @Test func findsWordsAnywhereInBytes() {
        let text = Array("<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<HealthData locale=\"en_US\">".utf8)
        #expect(ByteSearch.contains(text, "<!DOCTYPE HealthData"))
        #expect(ByteSearch.contains(text, "<HealthData"))
        #expect(ByteSearch.contains(text, "<?xml"))                 // at the start
        #expect(ByteSearch.contains(text, "\"en_US\">"))            // at the end
        #expect(!ByteSearch.contains(text, "<HealthDatum"))
        #expect(!ByteSearch.contains(text, "\"en_US\">x"))          // runs past the end
        #expect(!ByteSearch.contains([UInt8](), "<"))
        #expect(ByteSearch.contains("a<<b".utf8, "<b"))             // a first byte that repeats
        #expect(ByteSearch.contains(text[30...], "HealthData"))     // a slice
    }

    @Test func endsWithComparesTheLastBytes() {
        let text = Array("xdrip-dexcomg6".utf8)
        #expect(ByteSearch.endsWith(text[..<12], "dexcom"))
        #expect(ByteSearch.endsWith(text[..<9], "dex"))
        #expect(!ByteSearch.endsWith(text[..<11], "dexcom"))
        #expect(!ByteSearch.endsWith(text[..<2], "dex"))            // shorter than the word
        #expect(ByteSearch.endsWith(text[..<0], ""))
    }
}
