import HealthPipeCore
import Testing

@Suite struct CGMSourceTests {
    /// Device texts as real exports write them (Clarity, Nightscout, xDrip+, LibreView, CareLink).
    @Test func familyAndModelOfRealDeviceTexts() {
        let cases: [(text: String, family: String?, model: String?)] = [
            ("android G6", CGMSource.dexcom, "G6"),
            ("Dexcom G6 Mobile App", CGMSource.dexcom, "G6"),
            ("xDrip-DexcomG6", CGMSource.dexcom, "G6"),
            ("DexG6MobRec_SM12345678", CGMSource.dexcom, "G6"),
            ("share2", CGMSource.dexcom, nil),
            ("G7", CGMSource.dexcom, "G7"),
            ("Dexcom ONE", CGMSource.dexcom, "ONE"),
            ("AbbottFreeStyleLibre3", CGMSource.libre, "Libre 3"),
            ("MMT-1780", CGMSource.medtronic, nil),
            ("Eversense", CGMSource.eversense, nil),
            ("iPhone", nil, nil),
            ("g66", nil, nil),                 // a number, not a model
            ("tag6", nil, nil),                // a word ending in g6, not a model
        ]
        for c in cases {
            #expect(CGMSource.family(of: c.text) == c.family, "\(c.text)")
            #expect(CGMSource.model(of: c.text) == c.model, "\(c.text)")
        }
    }

    /// Texts with fewer Characters than bytes before the `g`: the model is read by byte position, which
    /// once indexed the String by Characters and ran past its end (the clarity fuzz target's crash,
    /// Tests/Fixtures/fuzz-regressions/clarity).
    @Test func textsWithMultibyteOrInvalidCharactersDoNotTrap() {
        let invalid = String(decoding: [0xBF, 0xAF, 0x22, 0x22, 0x49, 0x47, 0x36], as: UTF8.self)  // the fuzzer's ¿ï""IG6
        #expect(CGMSource.model(of: invalid) == nil)                // a letter before g6 that is not dex
        #expect(CGMSource.model(of: String(decoding: [0xBF, 0xAF, 0x20, 0x47, 0x36], as: UTF8.self)) == "G6")
        #expect(CGMSource.model(of: "Gerät\r\n Dexcom G6") == "G6")
        #expect(CGMSource.model(of: "ÿÿÿÿÿÿÿÿdexG5") == "G5")
        #expect(CGMSource.model(of: "日本語のg7") == "G7")
        #expect(CGMSource.model(of: "🙂🙂🙂🙂🙂xg6") == nil)
    }
}
