import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// WHOOP's data export (real excerpts in Tests/Fixtures/real/whoop; their counts are count.py's,
/// checked by RealCorpusTests): each file found by content, every time in its row's own offset.
@Suite struct WhoopExportTests {
    static let real = FitbitSourcesTests.root.appendingPathComponent("Tests/Fixtures/real/whoop")

    static func run(_ file: String, as format: String) throws -> SourceOutput {
        let path = real.appendingPathComponent(file).path
        #expect(try FitbitSourcesTests.detected(path) == format)
        return try FitbitSourcesTests.run(format, path)
    }

    /// A cycle's values are at its wake-up in the row's offset; a cycle without sleep at its start.
    @Test func cycleValuesAreAtTheWakeUpInTheRowsOffset() throws {
        let out = try Self.run("physiological_cycles.csv", as: "whoop-cycles")
        #expect(out.quarantineLines.isEmpty)
        let strain = out.measurements.filter { $0.metric == Symbol("whoop.day_strain") }
        // Row 3: no sleep, strain only — at its start, 2024-06-22 23:00:22 at UTC-04:00 = 2024-06-23 03:00:22Z.
        #expect(strain.first?.start == 1_719_111_622 && strain.first?.utcOffset == -14_400)
        // Row 4 (UTC+01:00): wake-up 2024-06-16 06:47:05 = 05:47:05Z.
        let recovery = out.measurements.filter { $0.metric == Symbol("whoop.recovery") }
        #expect(recovery.dropFirst().first?.start == 1_718_516_825 && recovery.dropFirst().first?.utcOffset == 3600)
        // Blood oxygen is stored as a fraction, as Apple Health stores it.
        let spo2 = out.measurements.filter { $0.metric == Symbol("oxygen_saturation") }.map(\.value)
        #expect(!spo2.isEmpty && spo2.allSatisfy { (0.8...1).contains($0) })
    }

    /// Across the clock change WHOOP writes every time of a cycle in its own offset: the night that
    /// starts 2024-03-09 20:49:09 at UTC-05:00 wakes at 06:17:02 in that offset (11:17:02Z), not EDT.
    @Test func sleepsSpanOnsetToWakeUpAndNapsAreTheirOwnSessions() throws {
        let out = try Self.run("sleeps.csv", as: "whoop-sleeps")
        #expect(out.quarantineLines.isEmpty)
        let night = try #require(out.measurements.first { $0.metric == Symbol("sleep_analysis.in_bed") && $0.start == 1_710_035_349 })
        #expect(night.end == 1_710_069_422 && night.utcOffset == -18_000)
        #expect(out.measurements.filter { $0.metric == Symbol("sleep_analysis.nap") }.count == 4)
        // A stage total spans its sleep, as the session does.
        let light = try #require(out.measurements.first { $0.metric == Symbol("sleep_total.asleep_core") && $0.start == night.start })
        #expect(light.end == night.end)
    }

    @Test func workoutsAreExerciseEventsWithTheirValuesOverTheWorkout() throws {
        let out = try Self.run("workouts.csv", as: "whoop-workouts")
        #expect(out.quarantineLines.isEmpty)
        let run: Event = try #require(out.events.first)
        // 2024-06-24 08:08:18 at UTC-04:00 = 12:08:18Z; 21 written minutes.
        #expect(run.kind == Event.Kind.exercise && run.note == "Running")
        #expect(run.start == 1_719_230_898 && run.end == run.start + 21 * 60)
        let strain = try #require(out.measurements.first { $0.metric == Symbol("whoop.activity_strain") })
        #expect(strain.start == run.start && strain.end == 1_719_232_176)
    }
}
