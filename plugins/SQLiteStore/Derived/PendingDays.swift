import HealthPipeCore

/// What an import run knows about each (subject, local day) it writes, to keep the derived-data
/// rule: every day whose rows change is added to `derived_pending` in the transaction that changes
/// them; a day whose derived rows this run can write exactly from the stream (fresh: `DayFreshness`)
/// is taken off again in the transaction that writes its derived rows — and listed again should a
/// later row change it. Everything else is left pending for the refresh.
final class PendingDays {
    typealias Key = DayFreshness.Key

    private let db: SQLiteConnection
    private let insertPending: Statement
    private let deletePending: Statement
    private let storedDay: Statement
    /// The days whose stored state was asked.
    private var asked: Set<Key> = []
    private let openEpisodes: Statement
    /// Which days are fresh: the rule PostgreSQL's sink keeps too.
    private var freshness = DayFreshness()
    /// Days this run changed that are not yet in `derived_pending`.
    private var unflushed: [Key] = []
    /// Fresh days whose derived rows were written from the stream in this run.
    private var settled: Set<Key> = []
    private var last: Key?

    init(db: SQLiteConnection) throws {
        self.db = db
        insertPending = try db.prepare("INSERT OR IGNORE INTO derived_pending (subject, day) VALUES (?1, ?2)", persistent: true)
        deletePending = try db.prepare("DELETE FROM derived_pending WHERE subject = ?1 AND day = ?2", persistent: true)
        // The next stored day after ?2, sought by the key (subject, day, metric): a day is one seek,
        // however many metrics it has (a UNION read and sorted every summary row of the subject).
        storedDay = try db.prepare("""
            SELECT EXISTS (SELECT 1 FROM daily_summaries WHERE subject = ?1 AND day = ?2)
                OR EXISTS (SELECT 1 FROM derived_pending WHERE subject = ?1 AND day = ?2)
            """, persistent: true)
        openEpisodes = try db.prepare("""
            SELECT min(start + utc_offset) FROM events WHERE subject = ?1 AND kind = 'episode' AND flags & \(RecordFlags.openEnded.rawValue) != 0
            """, persistent: true)
    }

    /// Call before writing any row of `subject`: remembers which of its days already had data.
    @inline(__always)
    func prepare(_ subject: Symbol) throws {
        if !freshness.knows(subject) { try loadExisting(subject) }
    }

    private func loadExisting(_ subject: Symbol) throws {
        var openFrom: Int64?
        openEpisodes.reset()
        try openEpisodes.bindText(1, subject.text)
        if try openEpisodes.step(), !openEpisodes.isNull(0) { openFrom = CivilDate.floorDiv(openEpisodes.int(0), 86_400) }
        openEpisodes.reset()
        // Its stored days are learnt one by one as the run reaches them (`learnDay`): an upload of
        // one reading into ten years of history asks about one day, not 3,500.
        freshness.learn(subject, storedDays: [], openEpisodesFrom: openFrom, isNew: false)
    }

    /// Before the run's first row of the day: whether the store had the day (a summary, or pending).
    private func learnDay(_ key: Key) throws {
        guard asked.insert(key).inserted else { return }
        storedDay.reset()
        try storedDay.bindText(1, key.subject.text)
        try storedDay.bindText(2, CivilDate.isoDate(fromDays: key.day))
        if try storedDay.step(), storedDay.int(0) != 0 { freshness.learnStored(key.subject, day: key.day) }
        storedDay.reset()
    }

    /// An open episode of `subject` starting on local `day` was written in this run.
    func noteOpenEpisode(subject: Symbol, day: Int64) {
        freshness.flag(subject, from: day)
    }

    /// Notes that rows of these days were written: `changed` when SQLite changed any row,
    /// `contested` when any of them met a stored row.
    @inline(__always)
    func note(subject: Symbol, day: Int64, changed: Bool, contested isContested: Bool) throws {
        let key = Key(subject: subject, day: day)
        if key != last { try learnDay(key) }
        if isContested { freshness.contest(key) }
        guard changed, key != last else { return }
        last = key
        if freshness.touch(key) { unflushed.append(key) }
        else if settled.remove(key) != nil { unflushed.append(key) }
    }

    /// True when this run may write the day's derived rows from the stream.
    func isFresh(subject: Symbol, day: Int64) -> Bool { freshness.isFresh(Key(subject: subject, day: day)) }

    /// Adds the days changed since the last flush to `derived_pending`; runs inside the commit.
    func flush() throws {
        for k in unflushed where !settled.contains(k) {
            try insertPending.bindText(1, k.subject.text)
            try insertPending.bindText(2, CivilDate.isoDate(fromDays: k.day))
            try insertPending.run()
        }
        unflushed.removeAll(keepingCapacity: true)
    }

    /// The day's derived rows were written from the stream: it is no longer pending.
    func settle(subject: Symbol, day: Int64) throws {
        guard settled.insert(Key(subject: subject, day: day)).inserted else { return }
        last = nil
        try deletePending.bindText(1, subject.text)
        try deletePending.bindText(2, CivilDate.isoDate(fromDays: day))
        try deletePending.run()
    }

    /// After a rollback: what was not committed was not written.
    func discardUnflushed() {
        freshness.untouch(unflushed)
        settled.removeAll()
        unflushed.removeAll()
        last = nil
    }
}
