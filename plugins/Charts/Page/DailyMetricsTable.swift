import HealthPipeCore

/// The page's "Daily metrics" section: every daily summary other than glucose (Apple Health's
/// steps, heart rate, sleep, activity rings, weight …) for the page's days — one row per day, one
/// column per metric, the day's total for a metric that adds up (steps, distance, energy, sleep
/// minutes: each minute once across sources, `DayTotal`) and the mean for any other, with its unit.
/// So a person whose data is not glucose sees it too.
public struct DailyMetricsTable: Sendable {
    public struct Cell: Sendable {
        public var day: Int64
        public var metric: String
        public var unit: String
        public var n: Int
        public var mean: Double?
        public var min: Double?
        public var max: Double?
        /// The day's total (a metric that adds up) and what each source counted (JSON text).
        public var total: Double?
        public var totalSources: String?
        public init(day: Int64, metric: String, unit: String, n: Int, mean: Double?, min: Double?, max: Double?,
                    total: Double? = nil, totalSources: String? = nil) {
            self.day = day; self.metric = metric; self.unit = unit; self.n = n; self.mean = mean; self.min = min; self.max = max
            self.total = total; self.totalSources = totalSources
        }
    }

    public var cells: [Cell]
    public init(cells: [Cell]) { self.cells = cells }

    public var isEmpty: Bool { cells.isEmpty }
    /// Metrics in name order, with the unit of their first cell.
    var columns: [(metric: String, unit: String)] {
        var seen: [String: String] = [:]
        for c in cells where seen[c.metric] == nil { seen[c.metric] = c.unit }
        return seen.keys.sorted().map { ($0, seen[$0]!) }
    }

    /// Newest day first, like the day table.
    package func render(_ m: inout Markup) {
        let cols = columns
        var byDay: [Int64: [String: Cell]] = [:]
        for c in cells { byDay[c.day, default: [:]][c.metric] = c }
        m.raw("<div class=\"table-wrap\"><table class=\"metrics-table\"><thead><tr><th scope=\"col\">Day</th>")
        for c in cols {
            m.raw("<th scope=\"col\">")
            m.escaped(c.metric.replacingOccurrences(of: "_", with: " ") + (c.unit.isEmpty ? "" : " (" + CanonicalUnits.shown(c.unit) + ")"))
            m.raw("</th>")
        }
        m.raw("</tr></thead><tbody>")
        for day in byDay.keys.sorted(by: >) {
            m.raw("<tr><th scope=\"row\">")
            m.escaped(Fmt.shortDate(day))
            m.raw("</th>")
            for c in cols {
                m.raw("<td>")
                if let cell = byDay[day]?[c.metric], let total = cell.total {
                    m.raw("<span title=\"")
                    let counted = cell.totalSources.map(SourceShare.parse(json:)) ?? []
                    m.escaped("total of \(cell.n) value(s), each minute once"
                              + (counted.isEmpty ? "" : "; counted: " + counted.map { "\($0.source.text) \(Fmt.amount($0.amount, 1))" }.joined(separator: ", ")))
                    m.raw("\">")
                    m.escaped(Fmt.amount(total, 1))
                    m.raw("</span>")
                } else if let cell = byDay[day]?[c.metric], let mean = cell.mean {
                    m.raw("<span title=\"")
                    m.escaped("\(cell.n) value(s)" + (cell.min.map { ", lowest " + Fmt.amount($0, 1) } ?? "") + (cell.max.map { ", highest " + Fmt.amount($0, 1) } ?? ""))
                    m.raw("\">")
                    m.escaped(Fmt.amount(mean, 1))
                    m.raw("</span>")
                }
                m.raw("</td>")
            }
            m.raw("</tr>")
        }
        m.raw("</tbody></table></div>")
    }
}
