import HealthPipeAnalytics
import Testing

/// Issue 36: a duration in hours whose minutes do not fit an Int trapped multiplying (`horizon`,
/// `min_duration`, `evaluate --horizon`); it is no duration.
@Suite struct DurationTextTests {
    @Test func hoursBeyondTheIntegersAreNoDuration() {
        #expect(DurationText.minutes("9223372036854775807h") == nil)
        #expect(DurationText.minutes("-9223372036854775808h") == nil)
        #expect(DurationText.minutes("2h") == 120)
        #expect(DurationText.minutes("30m") == 30)
    }
}
