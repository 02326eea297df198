import CSVFormats
import Foundation
import HealthPipeCore

/// Google Fit's Takeout activity CSVs (`Takeout/Fit/Daily activity metrics/`), found by their header:
/// - `Daily activity metrics.csv` (before 2020 `Daily Aggregations/Daily Summaries.csv`): one row per
///   local day, `Date` first. Each value spans that day, midnight to midnight in `--timezone`.
/// - `YYYY-MM-DD.csv`: the quarter hours of the day the file is named for, `Start time,End time` first,
///   clock times with their offset (`00:15:00.000+05:30`): each value spans its quarter hour.
/// Values of the columns `GoogleFitActivityColumns` lists are stored; an empty cell is no value. The two
/// layouts hold the same steps at two grains, so each is its own source: "Google Fit" for the days and
/// "Google Fit (15 min)" for the quarter hours. A day's row spans every minute of the day and its name
/// sorts first (`SourcePriority`), so where both were imported the day's total is Google's own day value,
/// counted once, and the quarter hours only count on days the daily file does not have.
final class GoogleFitActivitySource: Source, InputDescribing {
    static let format = "google-fit-activity"
    static let dailySource = Symbol("Google Fit")
    static let quarterHourSource = Symbol("Google Fit (15 min)")

    let options: CSVCommonOptions
    let day: Int64?
    var inputPaths: [String] { [options.path] }

    init(options: CSVCommonOptions, day: Int64?) {
        self.options = options
        self.day = day
    }

    /// The day a per-day file's name gives (`2025-02-03.csv`); nil for other names, and for a stream
    /// (standard input, a pipe): its name is the pipe's, not Google's.
    static func day(fromName path: String) -> Int64? {
        if path == "-" { return nil }
        if let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType,
           type != .typeRegular { return nil }
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.hasSuffix(".csv") else { return nil }
        return Array(name.utf8.dropLast(4)).withUnsafeBytes { GoogleFitClock.day($0) }
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var header: (layout: GoogleFitActivityColumns.Layout, columns: [(index: Int, target: GoogleFitActivityColumns.Target)])?
        var width = 0
        // A day runs from its first midnight to the next one's (a midnight repeated by a clock change is its earlier pass).
        var zone = options.zone.map { ZoneResolver(zone: $0, ambiguous: .earlier, nonexistent: options.nonexistent) }
        let file = Symbol(options.path), subject = options.subject
        let fileDay = day ?? Self.day(fromName: options.path)
        let input = try CSVInput(path: options.path)
        try CSVFileRun(input: input, format: Self.format, context: context)
            .forEachRow(delimiter: UInt8(ascii: ","), emit: emit) { row, out in
                guard let h = header else {
                    let names = row.strings()
                    guard let found = GoogleFitActivityColumns.resolve(names) else {
                        throw InputError(file: options.path, line: row.line,
                                         reason: "not a Google Fit activity CSV header (Date, or Start time,End time, then Step count, Calories (kcal), …)")
                    }
                    if found.layout == .quarterHours, fileDay == nil {
                        throw InputError(file: options.path, reason: "a Google Fit per-day file (Start time,End time, …) whose name does not "
                                         + "say its day: save it to a file named as Google names it (2025-02-03.csv), or give the "
                                         + "source's day option; standard input and pipes carry no name")
                    }
                    header = found
                    width = names.count
                    return
                }
                if row.isBlank { return }
                if row.count > width { throw CSVFileRun.Reject.wider(row.count, than: width) }
                guard row.count == width else {
                    throw CSVFileRun.Reject("row has \(row.count) fields but the header has \(width) (cut short?)")
                }
                let span: (start: Int64, end: Int64, offset: Int32, source: Symbol)
                switch h.layout {
                case .daily:
                    guard let d = GoogleFitClock.day(row.trimmed(0)) else {
                        throw CSVFileRun.Reject("Date '\(row.string(0))' is not a day such as 2025-02-03")
                    }
                    guard zone != nil else {
                        throw InputError(file: options.path, line: row.line, reason: "Google Fit's daily rows are local days without a zone: "
                                         + "pass --timezone (e.g. --timezone Asia/Kolkata) or set 'timezone:' in the pipeline")
                    }
                    let start = try zone!.resolve(local: d * 86_400), end = try zone!.resolve(local: (d + 1) * 86_400)
                    span = (start.utc, end.utc, start.offset, Self.dailySource)
                case .quarterHours:
                    guard let a = GoogleFitClock.clock(row.trimmed(0)), let b = GoogleFitClock.clock(row.trimmed(1)) else {
                        throw CSVFileRun.Reject("Start time '\(row.string(0))' or End time '\(row.string(1))' is not a time such as 00:15:00.000+05:30")
                    }
                    let midnight = fileDay! * 86_400
                    let start = midnight + a.seconds - Int64(a.offset)
                    var end = midnight + b.seconds - Int64(b.offset)
                    if end <= start { end += 86_400 }  // the last quarter ends at the next midnight
                    span = (start, end, a.offset, Self.quarterHourSource)
                }
                for c in h.columns {
                    let cell = row.trimmed(c.index)
                    if cell.isEmpty { continue }
                    guard let written = ByteText.double(cell) else {
                        throw CSVFileRun.Reject("\(c.target.metric.text) '\(row.string(c.index))' is not a number")
                    }
                    let value = written * c.target.scale
                    if let why = Plausibility.problem(metric: c.target.metric, value: value, unit: c.target.unit) {
                        throw CSVFileRun.Reject(why)
                    }
                    try out.add(Measurement(subject: subject, metric: c.target.metric, source: span.source, start: span.start,
                                            end: span.end, utcOffset: span.offset, value: value, unit: c.target.unit,
                                            provenance: Provenance(file: file, line: row.line)), emit)
                }
            }
        if header == nil {
            throw InputError(file: options.path, reason: "the file is empty: no Google Fit activity CSV header")
        }
    }

    /// A daily file from anywhere; a per-day file only as a named file (its name gives the day).
    static func detect(_ sniff: FileSniff) -> Int {
        guard let first = sniff.lines(1).first else { return 0 }
        let cells = first.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        guard let found = GoogleFitActivityColumns.resolve(cells) else { return 0 }
        return found.layout == .daily || sniff.isRegularFile ? 85 : 0
    }
}

public let googleFitActivityComponent = ComponentDescriptor(
    name: GoogleFitActivitySource.format, role: .source, family: "Wearables",
    summary: """
        Google Fit Takeout activity CSVs: `Daily activity metrics.csv` / `Daily Summaries.csv` (one row per local day, \
        --timezone) and the per-day `YYYY-MM-DD.csv` (quarter hours, times with their offset, the day from the file's \
        name): steps, distance (km), calories (total_energy_burned), Move Minutes (active_minutes), Heart Points and \
        Heart Minutes (google_fit.*) and average weight, each over its day or quarter hour; sources "Google Fit" (days) \
        and "Google Fit (15 min)". See docs/formats.md.
        """,
    options: CSVCommonOptions.docs + [
        OptionDoc("day", "YYYY-MM-DD", default: "from the file's name", example: "2025-02-03",
                  "the day of a per-day file of quarter hours (its rows hold only clock times)"),
    ],
    produces: [.measurements],
    detect: { GoogleFitActivitySource.detect($0) },
    signature: ["date", "start time", "end time", "move minutes count", "calories (kcal)", "distance (m)", "step count", "heart points"],
    build: { b in
        let text: String? = try b.value("day")
        var day: Int64?
        if let text {
            day = Array(text.utf8).withUnsafeBytes { GoogleFitClock.day($0) }
            if day == nil { throw b.error("day '\(text)' is not a day such as 2025-02-03", option: "day") }
        }
        return GoogleFitActivitySource(options: try CSVCommonOptions.read(b), day: day)
    })
