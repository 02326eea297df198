import HealthPipeCore
import Testing

/// The escaping rules of docs/reliability.md ("Output text, one rule per kind") at their homes.
@Suite struct OutputTextRulesTests {
    @Test func aCSVFieldIsQuotedWhenItHoldsTheSeparatorAQuoteOrAControl() {
        #expect(CSVText.line(["plain", "a,b", "say \"hi\"", "two\nlines", "bell\u{07}", ""]) ==
                "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"bell\u{07}\",")
        #expect(CSVText.line(["a;b", "a,b"], separator: UInt8(ascii: ";")) == "\"a;b\";a,b")
    }

    @Test func theTerminalAndMarkupHideTheSameCharacters() {
        for hidden: Unicode.Scalar in ["\u{0}", "\u{07}", "\u{1B}", "\r", "\u{7F}", "\u{9B}", "\u{202E}", "\u{FFFE}", "\u{FFFF}"] {
            #expect(EchoText.isHidden(hidden), "\(hidden.value)")
        }
        for shown: Unicode.Scalar in ["\n", "\t", "a", "é", "\u{2028}", "\u{FFFD}", "\u{1F600}"] {
            #expect(!EchoText.isHidden(shown), "\(shown.value)")
        }
        #expect(EchoText.visible("A\u{1B}[31m\u{07}\u{0}\u{FFFE}Z") == "A\\u{1b}[31m\\u{7}\\u{0}\\u{fffe}Z")
    }
}
