import HealthPipeCore

/// Re-aggregation's measurement writer: stores only the `band` of readings already in the table
/// (provenance, flags and values stay as imported). Readings arrive in time order per (subject,
/// metric, source), and bands come in long runs, so each run of equal bands becomes ONE keyed range
/// UPDATE that rewrites only the rows whose band differs — not a statement per reading. Readings
/// sharing one start time but not one band are written one by one on their full key.
final class BandWriter {
    struct Key: Hashable { var subject: Symbol, metric: Symbol, source: Symbol }
    struct Run {
        var band: Symbol
        var first: Int64
        var last: Int64
        /// The readings at `last` (usually one), in case a later one at the same start differs.
        var atLast: [Measurement]
    }

    static let rangeSQL = """
        UPDATE measurements SET band = ?4
        WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start BETWEEN ?5 AND ?6 AND band IS NOT ?4
        """
    static let exactSQL = """
        UPDATE measurements SET band = ?4
        WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start = ?5 AND end = ?6 AND band IS NOT ?4
        """

    /// A run never bridges a gap this long: a refresh reads a few separate days, and the readings
    /// between them that it did not read must not fall inside a range UPDATE.
    static let maxRunGap: Int64 = 6 * 3600

    /// Per key: the open run, and the start time whose readings hold different bands (written exactly).
    struct KeyState {
        var run: Run?
        var mixedAt: Int64?
    }

    private let range: Statement
    private let exact: Statement
    private let symbols: SymbolBytes
    private var states: [Key: KeyState] = [:]
    /// The key of the previous reading and its state, held outside `states` while its readings
    /// keep coming (no hashing per reading, and the run's buffer stays uniquely referenced).
    private var current: (key: Key, state: KeyState)?

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        range = try db.prepare(Self.rangeSQL, persistent: true)
        exact = try db.prepare(Self.exactSQL, persistent: true)
        self.symbols = symbols
    }

    func write(_ rows: ArraySlice<Measurement>) throws {
        for m in rows {
            let key = Key(subject: m.subject, metric: m.metric, source: m.source)
            if current?.key != key {
                park()
                current = (key, states.removeValue(forKey: key) ?? KeyState())
            }
            try add(m, key: key, to: &current!.state)
        }
    }

    /// Writes every open run; call before committing.
    func flush() throws {
        park()
        for (key, state) in states {
            if let run = state.run { try writeRange(key, run.band, run.first, run.last) }
        }
        states.removeAll()
    }

    private func park() {
        if let c = current { states[c.key] = c.state }
        current = nil
    }

    private func add(_ m: Measurement, key: Key, to state: inout KeyState) throws {
        if let t = state.mixedAt {
            if m.start == t { try writeExact(m); return }
            state.mixedAt = nil
        }
        guard state.run != nil else {
            state.run = Run(band: m.band, first: m.start, last: m.start, atLast: [m])
            return
        }
        if m.start > state.run!.last + Self.maxRunGap {
            let run = state.run!
            try writeRange(key, run.band, run.first, run.last)
            state.run = Run(band: m.band, first: m.start, last: m.start, atLast: [m])
        } else if m.band == state.run!.band && m.start >= state.run!.last {
            if m.start == state.run!.last {
                state.run!.atLast.append(m)
            } else {
                state.run!.last = m.start
                state.run!.atLast.removeAll(keepingCapacity: true)
                state.run!.atLast.append(m)
            }
        } else if m.start == state.run!.last {
            // One start, two bands: the run ends before it; that instant's readings go one by one.
            let run = state.run!
            if run.first < run.last { try writeRange(key, run.band, run.first, run.last - 1) }
            for r in run.atLast { try writeExact(r) }
            try writeExact(m)
            state.run = nil
            state.mixedAt = m.start
        } else {
            let run = state.run!
            try writeRange(key, run.band, run.first, run.last)
            state.run = Run(band: m.band, first: m.start, last: m.start, atLast: [m])
        }
    }

    private func writeRange(_ key: Key, _ band: Symbol, _ first: Int64, _ last: Int64) throws {
        let s = range
        try symbols.bind(key.subject, to: s, at: 1)
        try symbols.bind(key.metric, to: s, at: 2)
        try symbols.bind(key.source, to: s, at: 3)
        try symbols.bindOrNull(band, to: s, at: 4)
        try s.bindInt(5, first)
        try s.bindInt(6, last)
        try s.run()
    }

    private func writeExact(_ m: Measurement) throws {
        let s = exact
        try symbols.bind(m.subject, to: s, at: 1)
        try symbols.bind(m.metric, to: s, at: 2)
        try symbols.bind(m.source, to: s, at: 3)
        try symbols.bindOrNull(m.band, to: s, at: 4)
        try s.bindInt(5, m.start)
        try s.bindInt(6, m.end)
        try s.run()
    }
}
