import ArgumentParser
import Foundation
import HealthPipeAnalytics
import HealthPipeCore

struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "CGM metrics (mean, SD, CV, GMI, time in ranges, LBGI/HBGI, GRI, MAGE, CONGA, MODD, AGP …) per day or period.",
        discussion: """
        From an export file (format detected as in `import`; nothing is written) or from a database made by `import`. \
        Definitions follow iglu (docs/analytics.md). --per period takes everything from the first to the last reading \
        unless --from/--to bound it. --subject keeps only that subject (and names the data of a file without a \
        subject column). --json prints one JSON object per subject and day/period, one per line.
        """)

    @Option(help: "An export file to compute metrics for (no database needed).") var input: String?
    @OptionGroup var store: OptionalStoreOptions
    @OptionGroup var shared: SharedOptions
    @Option(help: "day: one set per local day; period: one set for the whole period.") var per: MetricsPer = .day
    @Option(help: "First local day of the period (YYYY-MM-DD).") var from: String?
    @Option(help: "Last local day of the period (YYYY-MM-DD).") var to: String?
    @Option(help: "Which metric to summarise.") var metric: String = "glucose"
    @Option(help: "Force a source type instead of detecting it.") var format: String?
    @Flag(help: "Print JSON objects (one per line) with the metric names of docs/analytics.md.") var json = false

    func validate() throws {
        guard (input == nil) != (store.db == nil) else { throw ValidationError("give exactly one of --input or --db") }
        if per == .day, from != nil || to != nil { throw ValidationError("--from/--to bound a period: add --per period") }
        for d in [from, to].compactMap({ $0 }) where CivilDate.days(fromISO: d) == nil {
            throw ValidationError("'\(d)' is not a date (YYYY-MM-DD)")
        }
    }

    func run() throws {
        let period: MetricPeriod = per == .day ? .day
            : .period(from: from.flatMap(CivilDate.days(fromISO:)), to: to.flatMap(CivilDate.days(fromISO:)))
        let cwd = FileManager.default.currentDirectoryPath
        let source: MetricsPipeline.Input
        if let input {
            source = .file(path: ComponentBuilder.resolve(input, base: cwd), shown: input, format: format)
        } else if let location = store.location {
            source = .database(path: try location.existingPath(), shown: location.shown, subject: shared.subject)
        } else {
            return  // validate() requires one of them
        }
        var sets = try MetricsPipeline.compute(source, period: period, metric: metric, shared: shared)
        if let subject = shared.subject { sets = sets.filter { $0.subject.text == subject } }
        sets.sort { ($0.subject.text, $0.metric.text, $0.firstDay, $0.lastDay) < ($1.subject.text, $1.metric.text, $1.firstDay, $1.lastDay) }
        if json { try emit(MetricsOutput.json(sets)) } else { try emit(MetricsOutput.table(sets)) }
        if sets.isEmpty { printError("no \(metric) readings" + (shared.subject.map { " for subject '\($0)'" } ?? "")) }
    }
}
