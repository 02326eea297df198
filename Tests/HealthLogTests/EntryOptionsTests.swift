import HealthPipeCore
import Testing
@testable import HealthLog

/// The hand-made entries of `healthpipe add` / `reports add` as the `health-entry` source builds them:
/// local times in the entry's zone, the records each kind stands for, and refusals that name the option.
@Suite struct EntryOptionsTests {
    /// 2024-03-05T12:00:00Z: entries are checked against this clock, not the real one.
    static let now: Int64 = 1_709_640_000

    static func records(_ yaml: String) throws -> RecordBatch {
        let doc = try ConfigDocument(file: "entry.yml", text: yaml)
        let b = ComponentBuilder(stageName: "entry", document: doc, node: doc.root, settings: RunSettings(subject: "ann"))
        return try b.options(EntryOptions.self).records(b, now: now)
    }

    static func refusal(_ yaml: String) -> String {
        do { _ = try records(yaml); return "no error" } catch { return "\(error)" }
    }

    @Test func insulinAtALocalTimeInTheEntrysZone() throws {
        let batch = try Self.records("kind: insulin\nat: 2024-03-05 08:00\ntimezone: Europe/Berlin\nunits: 4.5")
        let e = try #require(batch.events.first)
        #expect(batch.events.count == 1 && e.kind == .insulin && e.insulin == 4.5)
        #expect(e.start == Self.now - 5 * 3_600 && e.utcOffset == 3_600 && e.subject.text == "ann")
    }

    @Test func aMealKeepsItsNutrients() throws {
        let batch = try Self.records("kind: meal\nat: 2024-03-05T07:30:00+01:00\ncarbs: 45\nprotein: 12\nfat: 9\nname: porridge")
        let e = try #require(batch.events.first)
        #expect(e.kind == .meal && e.carbs == 45 && e.protein == 12 && e.fat == 9)
    }

    @Test func aReportIsItsValuesAsReadings() throws {
        let batch = try Self.records("kind: report\nat: 2024-03-05T09:00:00Z\nvalues: [body_temperature=37.9C:4, pain=3:2]\nnote: flu")
        #expect(batch.reports.count == 1 && batch.measurements.count == 2)
        #expect(Set(batch.measurements.map(\.metric.text)) == ["body_temperature", "pain"])
    }

    @Test(arguments: [
        ("kind: meal\nat: 2024-03-05T08:00:00Z\ncarbs: -3", "carbs"),
        ("kind: insulin\nat: 2024-03-07T08:00:00Z\nunits: 2", "future"),
        ("kind: report\nat: 2024-03-05T08:00:00Z\nvalues: [pain=3:2, mood=4:1]\nunits: 2", "a report takes values, not 'units'"),
        ("kind: insulin\nat: 2024-03-05T08:00:00Z\nunits: 2\nvalues: [pain=3:2]", "only a report takes values"),
        ("kind: insulin\nat: yesterday\nunits: 2", "at"),
    ])
    func refusalsNameTheOption(yaml: String, expected: String) {
        let message = Self.refusal(yaml)
        #expect(message != "no error" && message.contains(expected), "\(message)")
    }
}
