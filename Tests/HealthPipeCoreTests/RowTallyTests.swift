import HealthPipeCore
import Testing

/// `RowTally`, the one accounting rule of every source (docs/reliability.md, "Every row accounted for").
@Suite struct RowTallyTests {
    private func slot(_ t: inout RowTally, _ text: String, known: Bool = false) -> Int {
        Array(text.utf8).withUnsafeBytes { t.slot(named: $0, known: known) }
    }

    /// A type counted by its text keeps one slot however often it comes; its known flag is its first row's.
    @Test func aNamedTypeKeepsItsSlot() {
        var t = RowTally(types: ["EGV"])
        let a = slot(&t, "Ketone"), b = slot(&t, "Alarm", known: true)
        #expect(slot(&t, "Ketone", known: true) == a && slot(&t, "Alarm") == b && a != b)
        for _ in 0..<3 { t.count(a, .quarantined) }
        t.count(b, .skipped); t.count(0, .stored)
        #expect(t.counts == [RowTypeCount(type: "EGV", stored: 1), RowTypeCount(type: "Alarm", skipped: 1),
                             RowTypeCount(type: "Ketone", quarantined: 3, known: false)])
        #expect(t.totalStored == 1 && t.totalSkipped == 1 && t.totalQuarantined == 3)
    }

    /// A known type counted by its text joins the fixed slot of the same spelling (Clarity's Device rows).
    @Test func aKnownNamedTypeJoinsItsFixedSlot() {
        var t = RowTally(types: ["Device"])
        t.count(0, .stored)
        t.count(slot(&t, "Device", known: true), .skipped)
        #expect(t.counts == [RowTypeCount(type: "Device", stored: 1, skipped: 1)])
    }

    /// A hostile file of ever new types costs at most `maxNamedTypes` slots; every row is still counted.
    @Test func typesBeyondTheCapShareOneSlot() {
        var t = RowTally(knownTypes: 0)
        for i in 0..<(RowTally.maxNamedTypes + 500) { t.count(slot(&t, "type \(i)"), .quarantined) }
        let counts = t.counts
        #expect(counts.count == RowTally.maxNamedTypes + 1)
        #expect(counts.reduce(0) { $0 + $1.rows } == Int64(RowTally.maxNamedTypes + 500))
        #expect(counts.contains { $0.type == "(other types)" && $0.quarantined == 500 && !$0.known })
    }

    /// `account`: stored or skipped as returned, a rejection counted as quarantined and rethrown, any
    /// other error rethrown uncounted, nil (not a data row) not counted.
    @Test func accountCountsWhatTheMappingGave() {
        struct Rejected: RowRejection {}
        struct Broken: Error {}
        var t = RowTally(types: ["x"])
        #expect(throws: Never.self) { try t.account(0, .success(.stored)) }
        #expect(throws: Never.self) { try t.account(0, .success(nil)) }
        #expect(throws: Rejected.self) { try t.account(0, .failure(Rejected())) }
        #expect(throws: Broken.self) { try t.account(0, .failure(Broken())) }
        #expect(t.counts == [RowTypeCount(type: "x", stored: 1, quarantined: 1)])
    }

    /// Adding a sheet's tally: fixed slots by index, named types by their text.
    @Test func addMergesNamedTypesByText() {
        var a = RowTally(types: ["EGV"]), b = RowTally(types: ["EGV"])
        a.count(0, .stored); b.count(0, .stored)
        b.count(slot(&b, "Ketone"), .quarantined)
        a.count(slot(&a, "Ketone"), .quarantined)
        a.add(b)
        #expect(a.counts == [RowTypeCount(type: "EGV", stored: 2), RowTypeCount(type: "Ketone", quarantined: 2, known: false)])
    }
}
