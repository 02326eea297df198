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
        WHERE subject = ?1 AND metric = ?2 AND source = ?3 AND start = ?5 AND end = ?6 AND value = ?7 AND band IS NOT ?4
        """

    private let range: Statement
    private let exact: Statement
    private let symbols: SymbolBytes
    private var runs: [Key: Run] = [:]
    /// Keys whose current start time holds readings of different bands (written exactly).
    private var mixed: [Key: Int64] = [:]

    init(db: SQLiteConnection, symbols: SymbolBytes) throws {
        range = try db.prepare(Self.rangeSQL, persistent: true)
        exact = try db.prepare(Self.exactSQL, persistent: true)
        self.symbols = symbols
    }

    func write(_ rows: ArraySlice<Measurement>) throws {
        for m in rows {
            let key = Key(subject: m.subject, metric: m.metric, source: m.source)
            if let t = mixed[key] {
                if m.start == t { try writeExact(m); continue }
                mixed[key] = nil
            }
            guard var run = runs[key] else {
                runs[key] = Run(band: m.band, first: m.start, last: m.start, atLast: [m])
                continue
            }
            if m.band == run.band && m.start >= run.last {
                if m.start == run.last { run.atLast.append(m) } else { run.last = m.start; run.atLast = [m] }
                runs[key] = run
            } else if m.start == run.last {
                // One start, two bands: the run ends before it; that instant's readings go one by one.
                if run.first < run.last { try writeRange(key, run.band, run.first, run.last - 1) }
                for r in run.atLast { try writeExact(r) }
                try writeExact(m)
                runs[key] = nil
                mixed[key] = m.start
            } else {
                try writeRange(key, run.band, run.first, run.last)
                runs[key] = Run(band: m.band, first: m.start, last: m.start, atLast: [m])
            }
        }
    }

    /// Writes every open run; call before committing.
    func flush() throws {
        for (key, run) in runs { try writeRange(key, run.band, run.first, run.last) }
        runs.removeAll()
        mixed.removeAll()
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
        try s.bindDouble(7, m.value)
        try s.run()
    }
}
