import Foundation
import HealthPipeCore

/// A validated adapter, ready to detect and read files. Built once from a spec by
/// `MappedSpecCompiler`; immutable and shared by every run of the source.
struct MappedAdapter: Sendable {
    enum HeaderMode: Sendable, Equatable {
        case auto
        case none
        /// 1-based line number of the header row.
        case line(Int)
    }

    /// Only the rows between a line beginning with `begin` and the next one beginning with `end`.
    struct Section: Sendable {
        var begin: String  // lower-cased
        var end: String    // lower-cased
    }

    /// Alternative patterns, tried in order; `monthNames`: some pattern read `%b` (the cell's
    /// month name is rewritten to its number before parsing, see `MonthNames`).
    struct Patterns: Sendable {
        var list: [TimestampPattern]
        /// As written in the adapter (with `%b`), for messages.
        var texts: [String]
        var monthNames: Bool
        var description: String { texts.joined(separator: "' or '") }
    }

    enum TimeSource: Sendable {
        case single(ColumnRef, Patterns)
        /// Date and time in two cells, joined with a space and parsed with one combined pattern.
        case split(date: ColumnRef, time: ColumnRef?, Patterns)
    }

    /// How numbers write their decimals.
    enum DecimalMark: Sendable {
        case point, comma
        /// Either: `5.4` and `5,4` both read as 5.4 (one adapter over several languages).
        case auto
    }

    var name: String
    var summary: String
    var family: String
    var header: HeaderMode
    /// Normalized header cells that must all be present (empty for headerless adapters).
    var headerCells: [String]
    var withinLines: Int
    var fieldCount: Int?
    var detectDataRows: Int
    var section: Section?
    /// nil: judged from the file's first (header) line.
    var separator: UInt8?
    var decimal: DecimalMark
    var time: TimeSource
    var timezone: TimeZone?
    var subject: ColumnRef?
    var filter: RowFilter?
    var sourceName: Symbol
    var sourceColumn: ColumnRef?
    /// The column naming each row's type (`row_type_column`), read by entries' `when:`.
    var rowType: ColumnRef? = nil
    /// Read for the timestamp when the timestamp cell is empty (`timestamp.fallback_column`).
    var timeFallback: ColumnRef? = nil
    /// Where each row's span ends (`timestamp.end_column`: a sleep's wake-up): its records run from the
    /// timestamp to it. Read with the timestamp's formats; a time without an offset takes the start's.
    var timeEnd: ColumnRef? = nil
    /// Row types (lower-cased) that are not data (`skip_types`): counted as skipped with their type.
    var skipTypes: [[UInt8]] = []
    /// Value cells holding one of these words (lower-cased; `empty_values`) are empty cells: no record.
    var emptyWords: [[UInt8]] = []
    /// Every entry applies to row types only: a row of a type no entry lists and `skip_types` does not
    /// name is of an unknown type (quarantined, counted, and the run exits 3).
    var selectsRows: Bool { values.allSatisfy { $0.when != nil } && !values.isEmpty && rowType != nil }
    /// The row types the adapter knows, each once: those its entries read, then those it skips.
    var knownTypes: [[UInt8]] {
        var out: [[UInt8]] = []
        for w in values.flatMap({ $0.when ?? [] }) + skipTypes where !out.contains(w) { out.append(w) }
        return out
    }
    /// The row's free text (`note_column`).
    var notes: [ColumnRef]
    var values: [ValueMapping]

    /// Rows are health reports: some measurement columns carry an importance.
    var makesReports: Bool { values.contains { $0.importance != nil } }

    var produces: RecordKinds {
        var k: RecordKinds = []
        for v in values {
            switch v.target {
            case .measurement: k.insert(.measurements)
            case .event: k.insert(.events)
            }
        }
        if makesReports { k.insert(.reports) }
        if !notes.isEmpty { k.insert(.events) }
        return k
    }

    /// Every column a row needs, in the order `ResolvedColumns` stores them.
    var timeColumns: [ColumnRef] {
        switch time {
        case .single(let c, _): return [c]
        case .split(let d, let t, _): return [d] + (t.map { [$0] } ?? [])
        }
    }
}

/// Lower-cased words compared with a cell, ASCII case-insensitively.
enum ByteWords {
    static func contains(_ words: [[UInt8]], _ cell: UnsafeRawBufferPointer) -> Bool { index(in: words, of: cell) != nil }

    /// The position of the cell's word among `words`; non-ASCII bytes compare exactly (`Temporäre`).
    static func index(in words: [[UInt8]], of cell: UnsafeRawBufferPointer) -> Int? {
        words.firstIndex { w in
            w.count == cell.count && zip(w, cell).allSatisfy { a, b in a == (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        }
    }
}

/// Keeps only rows whose cell is one of `values` (ASCII case-insensitive), e.g. Nightscout
/// `sgv` rows and not `mbg` finger-sticks; other rows are skipped, not rejected.
struct RowFilter: Sendable {
    var column: ColumnRef
    /// Lower-cased.
    var values: [[UInt8]]

    func matches(_ cell: UnsafeRawBufferPointer) -> Bool {
        values.contains { v in
            v.count == cell.count && zip(v, cell).allSatisfy { a, b in a == (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        }
    }
}

/// A column named by header text (normalized) or by 0-based position in a headerless file.
enum ColumnRef: Sendable, Hashable, CustomStringConvertible {
    /// Normalized; may list alternatives joined by `|` (`ColumnNames`).
    case name(String)
    case index(Int)
    /// No cell: an `each_row` entry.
    case eachRow

    var description: String {
        switch self {
        case .name(let n): return "'\(n)'"
        case .index(let i): return "column \(i + 1)"
        case .eachRow: return "each row"
        }
    }
}

/// One numeric column and the record it becomes.
struct ValueMapping: Sendable {
    enum Target: Sendable {
        /// `glucose` set: the value is converted to mg/dL (and flagged when it was mmol/L).
        case measurement(metric: Symbol, unit: Symbol, glucose: GlucoseUnit?)
        case event(kind: Event.Kind, field: EventField, subtype: Symbol, durationSeconds: Int64)
    }

    var column: ColumnRef
    var target: Target
    var scale: Double
    /// Valid range of the value as written in the file (before `scale`); outside it the row is rejected.
    var min: Double?
    var max: Double?
    var skipZero: Bool
    /// The column may be missing from a file's header: its records are then absent.
    var optional: Bool = false
    /// Words for a reading beyond the device's range, and the value stored for them (flagged).
    var high: Limit? = nil
    var low: Limit? = nil
    /// Row types (lower-cased) this entry applies to; nil: every row.
    var when: [[UInt8]]? = nil
    /// The column giving each row's glucose unit (`unit_column`): mg/dL or mmol/L per row; an
    /// empty cell takes the entry's `unit:` (`unitDefault`), or rejects the row when it has none.
    var unitColumn: ColumnRef? = nil
    var unitDefault = true

    /// The entry reads rows of this type (`when:`), or every row.
    func applies(toType cell: UnsafeRawBufferPointer?) -> Bool {
        guard let when else { return true }
        guard let cell else { return false }
        return ByteWords.contains(when, cell)
    }
    /// An event with no amount for each row the entry applies to.
    var eachRow: Bool = false

    struct Limit: Sendable {
        /// Lower-cased.
        var words: [[UInt8]]
        var value: Double

        func matches(_ cell: UnsafeRawBufferPointer) -> Bool { ByteWords.contains(words, cell) }
    }

    /// A report value's importance: fixed, or read from a column.
    var importance: Importance? = nil

    enum Importance: Sendable {
        case fixed(Int)
        case column(ColumnRef)
    }
}

/// Which quantity of an event a column fills.
enum EventField: String, Sendable, CaseIterable {
    case carbs, protein, fat, insulin
    /// Minutes: the event ends this long after its timestamp.
    case duration

    /// The field a kind takes when the adapter does not say.
    static func defaultField(for kind: Event.Kind) -> EventField? {
        switch kind {
        case .meal: return .carbs
        case .insulin: return .insulin
        case .exercise, .episode: return .duration
        case .note, .alert, .device: return nil
        }
    }
}

extension ValueMapping {
    /// How rejection reasons name the column: "glucose (column 3)", "meal carbs ('carbs_g')".
    var label: String {
        switch target {
        case .measurement(let metric, _, _): return "\(metric.text) (\(column))"
        case .event(let kind, let field, _, _): return "\(kind.rawValue) \(field.rawValue) (\(column))"
        }
    }
}
