import Foundation
import HealthPipeCore

/// The `history-chart` sink: collects the sessions it receives (a few per day, so memory stays
/// small) and at the end writes the chart data of one period as JSON, by rename over a regular file
/// only (`AtomicFile`); a directory or device is refused before the run.
public final class HistoryChartSink: Sink, OutputChecking {
    public enum Anchor: Sendable, Hashable {
        /// The period holding the newest session (or today when there is none).
        case latest
        case today
        case day(Int64)
    }

    let path: String
    let period: HistoryChart.Period
    let offset: Int
    let anchor: Anchor
    let zone: TimeZone?
    private var entries: [HistoryChart.Entry] = []
    public private(set) var chart: HistoryChart?

    public init(path: String, period: HistoryChart.Period, offset: Int, anchor: Anchor, zone: TimeZone? = nil) {
        self.path = path
        self.period = period
        self.offset = offset
        self.anchor = anchor
        self.zone = zone
    }

    public func checkOutputs() throws {
        if path != "-" { _ = try OutputPath.check(path, what: "chart") }
    }

    public var fileRoles: [FileRole] { [FileRole(.output, path, what: "chart")] }

    public func open(run: RunInfo, context: StageContext) throws {}

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        for s in batch.motionSessions {
            entries.append(HistoryChart.Entry(start: CivilDate.floorDiv(s.start, 1000), end: CivilDate.floorDiv(s.end, 1000),
                                              utcOffset: s.utcOffset, average: s.average, accomplishment: s.accomplishment,
                                              origin: s.source.text))
        }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        let today: Int64
        switch anchor {
        case .day(let d): today = d
        case .latest where !entries.isEmpty: today = entries.map(\.localDay).max()!
        case .latest, .today: today = Self.today(in: zone)
        }
        let c = HistoryChart.build(period: period, offset: offset, today: today, entries: entries)
        chart = c
        if path == "-" { return try StandardOutput.write(c.json()) }
        try AtomicFile.write(c.json(), to: path, what: "chart")
    }

    /// Today's local day number in `zone` (the system zone when nil).
    public static func today(in zone: TimeZone?) -> Int64 {
        let now = Date()
        let offset = (zone ?? TimeZone.current).secondsFromGMT(for: now)
        return LocalDays.day(Int64(now.timeIntervalSince1970), offsetSeconds: offset)
    }

    /// `YYYY-MM-DD` → local day number.
    public static func day(_ text: String) -> Int64? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), d >= 1, d <= CivilDate.daysInMonth(year: y, month: m) else { return nil }
        return CivilDate.days(year: y, month: m, day: d)
    }
}

public let historyChartComponent = ComponentDescriptor(
    name: "history-chart", role: .sink, family: "Charts",
    summary: """
        Chart data of motion sessions for one week, month or year (the seed's history view) as JSON: one bucket per \
        day (week, month) or month (year) with sessions, minutes, mean average and accomplishment. A period without \
        sessions gives every bucket with 0 sessions ("empty": true). Stored history: `healthpipe history`.
        """,
    options: [
        OptionDoc("path", "path", required: true, "output JSON file (`-` for standard output)"),
        OptionDoc("period", "week | month | year", default: "week", "span of the chart"),
        OptionDoc("offset", "integer", default: "0", "periods before (−) or after (+) the anchor's period"),
        OptionDoc("at", "latest | today | YYYY-MM-DD", default: "latest", "the day whose period offset 0 is"),
        OptionDoc("timezone", "IANA zone", default: "run timezone, else the system zone", "zone of 'today'"),
    ],
    accepts: [.motionSessions],
    build: { b in
        guard let period = HistoryChart.Period(rawValue: try b.value("period") ?? "week") else {
            throw b.error("period is week, month or year", option: "period")
        }
        let anchor: HistoryChartSink.Anchor
        switch try b.value("at") ?? "latest" {
        case "latest": anchor = .latest
        case "today": anchor = .today
        case let text:
            guard let d = HistoryChartSink.day(text) else { throw b.error("at is latest, today or YYYY-MM-DD", option: "at") }
            anchor = .day(d)
        }
        return HistoryChartSink(path: b.path(try b.required("path")), period: period, offset: try b.wholeNumber("offset", .periodOffset) ?? 0,
                                anchor: anchor, zone: try b.zone(b.value("timezone")))
    })
