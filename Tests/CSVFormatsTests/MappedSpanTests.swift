import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// `timestamp.end_column` (a row that spans a time: a sleep from onset to wake-up) and the row's own
/// UTC offset in a column of its own (WHOOP's `Cycle timezone` = `UTC-04:00`), read as the time cell
/// of a split timestamp, with `fallback_column` standing in for an empty date cell.
@Suite struct MappedSpanTests {
    static let sleeps = """
        name: spans
        description: test
        detect: { header_contains: [onset, wake, zone] }
        timestamp: { date_column: onset, end_column: wake, date_format: "%Y-%m-%d %H:%M:%S", time_column: zone, time_format: "UTC%z" }
        columns:
          minutes: { metric: sleep_total.asleep, unit: min }
          workout: { event: exercise, field: duration }
        """

    @Test func aRowSpansFromItsTimestampToItsEndInItsOwnOffset() throws {
        let path = try MappedSupport.temporaryFile("s.csv", """
            onset,wake,zone,minutes,workout
            2024-03-09 20:49:09,2024-03-10 06:17:02,UTC-05:00,504,
            2024-06-15 21:42:59,2024-06-16 06:47:05,UTC+01:00,477,
            2024-06-16 07:00:00,2024-06-16 07:30:00,UTCZ,,25

            """)
        let out = try MappedSupport.run(try MappedSupport.adapter(Self.sleeps), path: path)
        #expect(out.quarantineLines.isEmpty)
        let m = out.measurements
        // 20:49:09 at −05:00 is 01:49:09Z; 06:17:02 in the same offset is 11:17:02Z (the row's one offset,
        // even on the night the wall clock springs forward).
        #expect(m[0].start == MappedSupport.utc(2024, 3, 10, 1, 49) + 9 && m[0].end == MappedSupport.utc(2024, 3, 10, 11, 17) + 2)
        #expect(m[0].utcOffset == -18_000)
        #expect(m[1].start == MappedSupport.utc(2024, 6, 15, 20, 42) + 59 && m[1].utcOffset == 3600)
        #expect(m[1].end == MappedSupport.utc(2024, 6, 16, 5, 47) + 5)
        // An event's written duration is its length; without one it would end at the end column.
        #expect(out.events.count == 1 && out.events[0].start == MappedSupport.utc(2024, 6, 16, 7, 0))
        #expect(out.events[0].end == MappedSupport.utc(2024, 6, 16, 7, 25))
    }

    @Test func anEndBeforeTheStartOrNotATimeIsRejected() throws {
        let path = try MappedSupport.temporaryFile("s.csv", """
            onset,wake,zone,minutes,workout
            2024-06-15 21:42:59,2024-06-15 20:00:00,UTC+01:00,477,
            2024-06-15 21:42:59,soon,UTC+01:00,477,
            2024-06-15 21:42:59,,UTC+01:00,477,

            """)
        let out = try MappedSupport.run(try MappedSupport.adapter(Self.sleeps), path: path)
        #expect(out.quarantineLines.count == 2)
        #expect(out.quarantineLines[0].contains("sleep_total.asleep ends before it starts"))
        #expect(out.quarantineLines[1].contains("end time 'soon UTC+01:00' does not match the format"))
        // An empty end: the record is an instant.
        #expect(out.measurements.count == 1 && out.measurements[0].end == out.measurements[0].start)
    }

    @Test func theFallbackColumnStandsInForAnEmptyDateCell() throws {
        let yaml = """
            name: cycles
            description: test
            detect: { header_contains: [start, wake, zone] }
            timestamp: { date_column: wake, fallback_column: start, date_format: "%Y-%m-%d %H:%M:%S", time_column: zone, time_format: "UTC%z" }
            columns:
              strain: { metric: whoop.day_strain, unit: score }
            """
        let path = try MappedSupport.temporaryFile("c.csv", """
            start,wake,zone,strain
            2024-06-15 21:42:59,2024-06-16 06:47:05,UTC+01:00,7.1
            2024-06-22 23:00:22,,UTC-04:00,4.0

            """)
        let out = try MappedSupport.run(try MappedSupport.adapter(yaml), path: path)
        #expect(out.quarantineLines.isEmpty)
        #expect(out.measurements.map(\.start) == [MappedSupport.utc(2024, 6, 16, 5, 47) + 5, MappedSupport.utc(2024, 6, 23, 3, 0) + 22])
    }

    @Test func endAndFallbackNeedATimestampColumn() throws {
        let yaml = """
            name: bad
            description: test
            detect: { header_contains: [a] }
            timestamp: { format: "%Y", end_column: b }
            columns:
              a: { metric: x, unit: min }
            """
        do {
            _ = try MappedSupport.adapter(yaml)
            Issue.record("expected the adapter to be refused")
        } catch {
            #expect("\(error)".contains("end_column goes with column + format or date_column + date_format"))
        }
    }
}
