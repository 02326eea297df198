import HealthPipeCore

/// One subject's readings of one metric from all its sources, merged by time (at one time, sources
/// in name order).
///
/// Several sources are read a week at a time: a source holding only grid rows (`resample`'s, which
/// are not read back) is then passed over a week per step as the others are read, instead of in one
/// scan of all of it before the first reading can be merged, which would hold up every stage.
final class MergedMeasurements {
    static let window: Int64 = 7 * 86_400

    private let cursors: [MeasurementCursor]
    /// Where the next week may begin; nil when none is left (or a single source is read in one go).
    private var resumeAt: Int64?

    /// Readings whose start lies in `bounds` (UTC seconds), all by default.
    private let bounds: ClosedRange<Int64>

    init(db: SQLiteConnection, subject: String, metric: String, sources: [String],
         bounds: ClosedRange<Int64> = Int64.min...Int64.max) throws {
        cursors = try sources.map { try MeasurementCursor(db: db, subject: subject, metric: metric, source: $0) }
        self.bounds = bounds
        if cursors.count == 1 {
            try cursors[0].load(from: bounds.lowerBound, through: bounds.upperBound)
        } else {
            resumeAt = bounds.lowerBound
            try nextWindow()
        }
    }

    /// The next reading in time order; nil after the last one.
    func next() throws -> Measurement? {
        if cursors.count == 1 {
            guard let m = cursors[0].current else { return nil }
            try cursors[0].advance()
            return m
        }
        while true {
            var pick = -1
            for (i, c) in cursors.enumerated() {
                guard let m = c.current else { continue }
                if pick < 0 || m.start < cursors[pick].current!.start { pick = i }
            }
            if pick >= 0 {
                let m = cursors[pick].current!
                try cursors[pick].advance()
                return m
            }
            guard try nextWindow() else { return nil }
        }
    }

    /// Loads the week that starts with the next stored row (stretches without rows are skipped);
    /// false when there is none.
    @discardableResult
    private func nextWindow() throws -> Bool {
        guard let from = resumeAt,
              let first = try cursors.compactMap({ try $0.firstRowStart(atOrAfter: from) }).min(), first <= bounds.upperBound else {
            resumeAt = nil
            return false
        }
        let (last, overflow) = first.addingReportingOverflow(Self.window - 1)
        let end = min(overflow ? Int64.max : last, bounds.upperBound)
        resumeAt = end == .max ? nil : end + 1
        for c in cursors { try c.load(from: first, through: end) }
        return true
    }
}
