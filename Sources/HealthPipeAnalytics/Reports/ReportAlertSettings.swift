import Foundation
import HealthPipeCore

/// What the `reports` step watches (seed 004 §1.2): a daily reminder time, and thresholds on the
/// average of a health value's important readings over a period.
public struct ReportAlertSettings: Sendable, Equatable {
    public struct Threshold: Sendable, Equatable {
        public var metric: Symbol
        /// True: the average must stay at or below `limit`; false: at or above it.
        public var above: Bool
        /// In the metric's canonical unit.
        public var limit: Double
        public var unit: Symbol
        /// The period the average covers, ending at each report.
        public var days: Int
        /// Only values of at least this importance count ("importance greater than 3": 4).
        public var minImportance: Int

        public init(metric: Symbol, above: Bool, limit: Double, unit: Symbol, days: Int = 7, minImportance: Int = 4) {
            self.metric = metric
            self.above = above
            self.limit = limit
            self.unit = unit
            self.days = days
            self.minImportance = minImportance
        }

        public var kind: Alert.Kind { above ? .averageAbove : .averageBelow }
        public var text: String { "\(metric.text)\(above ? ">" : "<")\(limit)/\(days)d/i\(minImportance)" }
    }

    /// Minutes after local midnight by which a report is expected each day; nil: no reminder.
    public var reminderMinute: Int?
    public var thresholds: [Threshold]

    public init(reminderMinute: Int? = nil, thresholds: [Threshold] = []) {
        self.reminderMinute = reminderMinute
        self.thresholds = thresholds
    }

    /// `20:00`.
    public var reminderText: String? {
        reminderMinute.map { m in (m / 60 < 10 ? "0" : "") + String(m / 60) + ":" + (m % 60 < 10 ? "0" : "") + String(m % 60) }
    }

    /// `20:00` → 1200; nil when it is not a time of day.
    public static func minute(of text: String) -> Int? {
        let p = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, p[1].count == 2, let h = Int(p[0]), let m = Int(p[1]), (0..<24).contains(h), (0..<60).contains(m) else {
            return nil
        }
        return h * 60 + m
    }
}
