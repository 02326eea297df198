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
}
