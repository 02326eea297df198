import HealthPipeCore
import Testing

/// The day rule both stores' import sinks keep (`DayFreshness`), case by case.
@Suite struct DayFreshnessTests {
    let ann = Symbol("ann"), bob = Symbol("bob")

    func key(_ s: Symbol, _ day: Int64) -> DayFreshness.Key { .init(subject: s, day: day) }

    @Test func aChangedDayNothingWasStoredForIsFreshUntilARowMeetsAStoredOne() {
        var f = DayFreshness()
        #expect(!f.mayBeFresh(key(ann, 10)), "a subject not seen yet is not fresh")
        f.learn(ann, storedDays: [5, 6], openEpisodesFrom: nil, isNew: false)
        #expect(f.knows(ann) && !f.knows(bob))
        #expect(f.mayBeFresh(key(ann, 10)) && !f.isFresh(key(ann, 10)), "fresh so far, but not changed yet")
        #expect(f.touch(key(ann, 10)) && !f.touch(key(ann, 10)))
        f.touch(key(ann, 5))
        #expect(f.isFresh(key(ann, 10)) && !f.isFresh(key(ann, 5)), "a day with stored rows is not fresh")
        f.contest(key(ann, 10))
        #expect(!f.isFresh(key(ann, 10)) && !f.mayBeFresh(key(ann, 10)))
        f.touch(key(ann, 11))
        f.untouch([key(ann, 11)])
        #expect(!f.isFresh(key(ann, 11)) && f.freshDays.isEmpty)
    }

    @Test func openEpisodesFlagTheirDaysOnAndAWholePendingSubjectHasNoFreshDay() {
        var f = DayFreshness()
        f.learn(ann, storedDays: [], openEpisodesFrom: 20, isNew: false)
        f.learn(bob, storedDays: nil, openEpisodesFrom: nil, isNew: false)
        for d: Int64 in [19, 20, 21] { f.touch(key(ann, d)) }
        f.touch(key(bob, 1))
        #expect(f.freshDays == [key(ann, 19)])
        f.flag(ann, from: 15)  // an open episode written in the run
        #expect(f.freshDays.isEmpty)
    }

    @Test func rowsOfEveryDayFlagASubjectTheStoreHeldUnlessTheStreamHoldsAllOfIt() {
        var f = DayFreshness()
        f.learn(ann, storedDays: [], openEpisodesFrom: nil, isNew: true)
        f.learn(bob, storedDays: [], openEpisodesFrom: nil, isNew: false)
        for s in [ann, bob] {
            f.touch(key(s, 1))
            f.noteWholeSubject(s, contested: false)
        }
        #expect(f.freshDays == [key(ann, 1)] && f.freshSubjects == [ann])
        f.contest(key(ann, 2))
        f.touch(key(ann, 2))
        #expect(f.freshSubjects.isEmpty, "a contested day of a new subject leaves it pending whole")
        var g = DayFreshness()
        g.learn(ann, storedDays: [], openEpisodesFrom: nil, isNew: true)
        g.touch(key(ann, 1))
        g.noteWholeSubject(ann, contested: true)
        #expect(g.freshDays.isEmpty && g.freshSubjects.isEmpty)
    }
}
