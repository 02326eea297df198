import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// Core's one decimal reader: correctly rounded (the same bits as strtod) and strict about what a
/// number is, for every format that reads one.
@Suite struct DecimalTextTests {
    private func read(_ text: String, point: UInt8 = UInt8(ascii: ".")) -> Double? {
        Array(text.utf8).withUnsafeBytes { DecimalText.double($0, point: point) }
    }

    @Test func readsTheFormsReadingsComeIn() {
        #expect(read("72") == 72)
        #expect(read("-0.539") == -0.539)
        #expect(read("+5.5") == 5.5)
        #expect(read("0.0143") == 0.0143)
        #expect(read("5.") == 5)
        #expect(read(".5") == 0.5)
        #expect(read("1e-3") == 0.001)
        #expect(read("1.557405318571E+12") == 1_557_405_318_571)
        #expect(read("12,5", point: UInt8(ascii: ",")) == 12.5)
        #expect(read("0.3") == 0.3)  // not 3 × 0.1 = 0.30000000000000004
        #expect(read("98.60000000000000000001") == 98.6)  // more digits than the fast path takes
        #expect(read("1e-400") == 0)
    }

    @Test func refusesWhatIsNotANumber() {
        for text in ["", "-", "+", ".", "e5", "1e", "1e+", "Low", "nan", "inf", "-inf", "0x1A", " 72", "72 ", "1.2.3",
                     "1,5", "12..5", "1e999", "-1e309", "5 mg/dL"] {
            #expect(read(text) == nil, "\(text)")
        }
        #expect(read("1.5", point: UInt8(ascii: ",")) == nil)
    }

    /// Random decimals of every shape, compared bit for bit with strtod.
    @Test func equalsStrtodBitForBit() {
        var rng = SplitMix64(seed: 0xDEC1)
        for _ in 0..<40_000 {
            var text = Bool.random(using: &rng) ? "-" : ""
            let whole = Int.random(in: 0...20, using: &rng), fraction = Int.random(in: 0...24, using: &rng)
            for _ in 0..<whole { text += String(Int.random(in: 0...9, using: &rng)) }
            if fraction > 0 || whole == 0 {
                text += "."
                for _ in 0..<max(1, fraction) { text += String(Int.random(in: 0...9, using: &rng)) }
            }
            if Int.random(in: 0..<4, using: &rng) == 0 { text += "e\(Int.random(in: -30...30, using: &rng))" }
            let expected = strtod(text, nil)
            #expect(read(text)?.bitPattern == expected.bitPattern, "\(text)")
        }
    }
}
