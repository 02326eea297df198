/// Which (subject, local day)s an import may store derived rows for straight from its own stream —
/// the one rule both stores' import sinks keep (docs/schema.md, "The derived-data rule"). A day is
/// *fresh* when the stream's rows for it are exactly the store's, so the stream's daily rows are what
/// re-aggregation computes:
/// - nothing of it was stored before the run (no daily row and not pending when its subject was first seen);
/// - the run changed a row of it (`touch`), and every row it wrote for it was a new insert (`contest`:
///   a row met a stored one, or a key came twice);
/// - no open episode flags it: one stored or written flags every later day that has a row (`flag`).
/// Freshness only shrinks as a run goes on, so rows staged for a day that looked fresh
/// (`mayBeFresh`) are exact if the day is still fresh when the run completes; every other day is
/// left pending for the refresh. Steps that read across midnight or whole histories (resample,
/// predict, alerts, period sets) are never trusted from a stream (`StoreDerivation.prepare`), so a
/// store keeping them derives nothing from it (`DerivationSettings.streamDerives`).
public struct DayFreshness: Sendable {
    public struct Key: Hashable, Sendable {
        public var subject: Symbol
        public var day: Int64

        public init(subject: Symbol, day: Int64) {
            self.subject = subject
            self.day = day
        }
    }

    /// Per subject seen: the local days that had rows (or were pending) before this run wrote any.
    private var stored: [Symbol: Set<Int64>] = [:]
    /// Subjects the store held nothing of when first seen: the stream holds every row of theirs.
    public private(set) var newSubjects: Set<Symbol> = []
    /// Per subject: the first local day nothing is fresh from (an open episode's; `Int64.min`: every day).
    private var flaggedFrom: [Symbol: Int64] = [:]
    /// Days whose rows this run changed.
    public private(set) var touched: Set<Key> = []
    private var contested: Set<Key> = []

    public init() {}

    public func knows(_ subject: Symbol) -> Bool { stored[subject] != nil }

    /// First sight of `subject`, before any row of it is written: its stored days (nil: every day, a
    /// subject pending whole), the local day its first stored open episode starts on, and whether
    /// the store held nothing of it at all (false when not known).
    public mutating func learn(_ subject: Symbol, storedDays: Set<Int64>?, openEpisodesFrom: Int64?, isNew: Bool) {
        stored[subject] = storedDays ?? []
        if storedDays == nil { flag(subject, from: .min) }
        if let openEpisodesFrom { flag(subject, from: openEpisodesFrom) }
        if isNew { newSubjects.insert(subject) }
    }

    /// A store that learns its stored days one at a time (SQLite: a day when the run first writes
    /// a row of it, before any row of the day is written): `day` of `subject` had rows before this run.
    public mutating func learnStored(_ subject: Symbol, day: Int64) {
        stored[subject, default: []].insert(day)
    }

    /// No day of `subject` from local `day` on is fresh (an open episode written; `.min`: none).
    public mutating func flag(_ subject: Symbol, from day: Int64) {
        flaggedFrom[subject] = min(flaggedFrom[subject] ?? day, day)
    }

    /// A row of `subject` that counts on any of its days (PostgreSQL lists an episode so) was
    /// written. Of a subject new to the store the stream holds that row too, so only a contested one
    /// (met stored, or came twice) flags its days there.
    public mutating func noteWholeSubject(_ subject: Symbol, contested: Bool) {
        if contested || !newSubjects.contains(subject) { flag(subject, from: .min) }
    }

    /// The run changed a row of the day; true the first time.
    @discardableResult
    public mutating func touch(_ key: Key) -> Bool { touched.insert(key).inserted }

    /// A row the run wrote for the day met a stored one (or its key came twice).
    public mutating func contest(_ key: Key) { contested.insert(key) }

    /// After a rollback: those days' changes were not written.
    public mutating func untouch(_ keys: some Sequence<Key>) {
        for k in keys { touched.remove(k) }
    }

    /// Nothing of the day was stored before the run and no row the run wrote for it met a stored one:
    /// its rows are most likely all new (a store may copy them straight in, undoing that if not).
    public func isUnstored(_ key: Key) -> Bool {
        !contested.contains(key) && !(stored[key.subject]?.contains(key.day) ?? true)
    }

    /// Fresh so far, whether or not the run has changed the day yet: its stream rows may be staged.
    public func mayBeFresh(_ key: Key) -> Bool {
        if let from = flaggedFrom[key.subject], key.day >= from { return false }
        return isUnstored(key)
    }

    public func isFresh(_ key: Key) -> Bool { touched.contains(key) && mayBeFresh(key) }

    /// The changed days that are fresh.
    public var freshDays: [Key] { touched.filter(isFresh) }

    /// Subjects new to the store that nothing flags and every changed day of which is fresh: all the
    /// stream derived of them is exact, rows that count on any day included.
    public var freshSubjects: [Symbol] {
        let stale = Set(touched.lazy.filter { !self.mayBeFresh($0) }.map(\.subject))
        return newSubjects.filter { flaggedFrom[$0] == nil && !stale.contains($0) }
    }
}
