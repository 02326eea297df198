import HealthPipeCore

/// The seed-002 health table: one row per day with glucose low/avg/high, the Hypo, Hyper,
/// Exercise, Stress and Illness icons and the favourite star, filtered as the seed's user filters it.
public struct DayTable: Sendable {
    /// A day's row, as every store reads it (`StoreReader.dayLog`).
    public typealias Row = DayLogRow

    /// The seed's summary icons, left to right.
    public enum Flag: String, Sendable, CaseIterable {
        case hypo, hyper, exercise, stress, illness
        public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    /// Every filter must hold (hypo days that were also exercise days …).
    public struct Filter: Sendable, Hashable {
        public var flags: Set<Flag> = []
        /// Only the last N days up to the table's last day.
        public var lastDays: Int?
        public var favouritesOnly = false
        public init(flags: Set<Flag> = [], lastDays: Int? = nil, favouritesOnly: Bool = false) {
            self.flags = flags
            self.lastDays = lastDays
            self.favouritesOnly = favouritesOnly
        }

        public var isEmpty: Bool { flags.isEmpty && lastDays == nil && !favouritesOnly }

        public func matches(_ r: Row, lastDay: Int64) -> Bool {
            if favouritesOnly && !r.favourite { return false }
            if let n = lastDays, r.day <= lastDay - Int64(n) { return false }
            return flags.allSatisfy { r.has($0) }
        }
    }

    public var subject: String
    public var firstDay: Int64
    public var lastDay: Int64
    public var unit: DisplayUnit
    /// Every day of the range that has a summary, newest first (as the seed lists previous days).
    public var rows: [Row]
    public var filter: Filter

    public init(subject: String, firstDay: Int64, lastDay: Int64, unit: DisplayUnit, rows: [Row], filter: Filter = Filter()) {
        self.subject = subject
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.unit = unit
        self.rows = rows.sorted { $0.day > $1.day }
        self.filter = filter
    }

    /// The rows the filter keeps.
    public var shown: [Row] { rows.filter { filter.matches($0, lastDay: lastDay) } }
}

extension DayLogRow {
    public func has(_ flag: DayTable.Flag) -> Bool {
        switch flag {
        case .hypo: return hypo
        case .hyper: return hyper
        case .exercise: return exercise
        case .stress: return stress
        case .illness: return illness
        }
    }
}
