@testable import AppleHealth
import Testing

/// The beat times of `InstantaneousBeatsPerMinute` as the Health app writes them in its locales.
@Suite struct BeatClockTests {
    @Test(arguments: [
        ("7:46:04.05 PM", 71_164_050),
        ("19:46:04.05", 71_164_050),
        ("19:46:04,05", 71_164_050),            // decimal comma
        ("7:46:04.05\u{202F}PM", 71_164_050),   // iOS 17: narrow no-break space before the mark
        (" 7:46:04.05 pm\t", 71_164_050),
        ("7:46:04 AM", 27_964_000),
        ("12:00:00.00 AM", 0),
        ("12:30:00.00 PM", 45_000_000),
        ("0:00:00.0004", 0),
        ("0:00:00.0005", 1),                    // half a millisecond rounds up
        ("23:59:60.999", 86_400_999),           // a leap second is kept
        ("1:02:.5", 3_720_500),
    ])
    func readsTimesOfDay(text: String, milliseconds: Int64) {
        #expect(BeatClock.milliseconds(text) == milliseconds)
    }

    @Test(arguments: ["", "PM", "7:46", "7:46:04:01", "24:00:00", "7:60:00", "7:46:61",
                      "13:00:00 PM", "0:10:00 AM", "7:46:04.05 XM", "7:46:04. 05", "+7:46:04", "7:46:x", "1234567890:00:00"])
    func refusesWhatIsNotATime(text: String) {
        #expect(BeatClock.milliseconds(text) == nil)
    }
}
