import ArgumentParser
import BuiltinPlugins
import Charts
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeStore
import SQLiteStore

/// Options shared by `chart` and `page`: the store, whose data, and how to draw it.
struct ChartOptions: ParsableArguments {
    @Option(help: "The SQLite database (written by `healthpipe import` or a pipeline).") var db: String
    @Option(help: "Whose data (default: the only subject with glucose readings).") var subject: String?
    @Option(help: "Glucose unit: mmol/L (the seeds' 0–20 axis) or mg/dL.") var unit: String = "mmol/L"
    @Option(help: "Show basal insulin on the day view: on or off.") var basal: String = "on"
    @Option(help: "Forecast model of the day view: ridge, ar2, ridge-treatments or none.") var model: String = "ridge"
    @Option(help: "Bands: seeds, consensus or range (default: the preset the store was classified with).") var preset: String?
    @Option(help: "Count this local date (YYYY-MM-DD) as today (default: the real date).") var today: String?

    func settings() throws -> ViewSettings {
        var s: ViewSettings
        do { s = try ViewSettings.parse(unit: unit, model: model, preset: preset) } catch let e as ViewSettings.Invalid {
            throw configFailure(ValidationError("--" + e.description))
        }
        switch basal.lowercased() {
        case "on", "true", "yes": s.showBasal = true
        case "off", "false", "no": s.showBasal = false
        default: throw configFailure(ValidationError("--basal is on or off (got '\(basal)')"))
        }
        if let today { s.today = try Self.day(today, option: "--today") }
        if s.scheme == nil { s.scheme = storedScheme() }
        return s
    }

    /// The bands the database classifies with (its stored derivation settings); nil when it keeps
    /// none (the views then go by the stored band labels).
    func storedScheme() -> BandScheme? {
        let path = ComponentBuilder.resolve(db, base: FileManager.default.currentDirectoryPath)
        guard let settings = try? StoreDerivation.stored(path), let classify = settings["classify"],
              let registry = try? BuiltinPlugins.registry(), let component = registry.component(named: "classify") else { return nil }
        let doc = classify.document ?? ConfigDocument(command: "stored settings", root: classify.options)
        let builder = ComponentBuilder(stageName: "classify", document: doc, node: classify.options, settings: RunSettings())
        return ((try? component.build(builder)) as? ClassifyTransform)?.scheme
    }

    static func day(_ text: String, option: String) throws -> Int64 {
        guard let d = CivilDate.days(fromISO: text) else { throw configFailure(ValidationError("\(option) is a date YYYY-MM-DD (got '\(text)')")) }
        return d
    }

    /// The database path, which must exist: a chart of a missing file is an error, not an empty chart.
    func databasePath() throws -> String {
        let path = ComponentBuilder.resolve(db, base: FileManager.default.currentDirectoryPath)
        guard FileManager.default.fileExists(atPath: path) else {
            printError("\(db): no such database (create it with `healthpipe import FILE --db \(db)`)")
            throw ExitCode(1)
        }
        return path
    }

    func openQueries() throws -> ChartQueries {
        let path = try databasePath()
        do { return try ChartQueries(path: path) } catch {
            printError("\(db): \(error)")
            throw ExitCode(1)
        }
    }

    /// `--subject`, else the one subject with glucose readings.
    func resolveSubject(_ q: ChartQueries) throws -> String {
        let subjects = try q.subjects()
        if let subject {
            guard subjects.contains(subject) else {
                printError("\(db): no glucose readings for subject '\(subject)'" + (subjects.isEmpty ? "" : " (subjects with glucose: \(subjects.joined(separator: ", ")))"))
                throw ExitCode(1)
            }
            return subject
        }
        switch subjects.count {
        case 0:
            printError("\(db): no glucose readings to chart")
            throw ExitCode(1)
        case 1: return subjects[0]
        default:
            printError("\(db): several subjects have glucose readings (\(subjects.joined(separator: ", "))): choose one with --subject")
            throw ExitCode(2)
        }
    }

    /// A loader over the store for the subject, and the subject's last day with readings (exit 1 when it has none).
    func openLoader(_ settings: ViewSettings, queries opened: ChartQueries? = nil) throws -> (loader: ChartLoader, lastDay: Int64) {
        let queries = try opened ?? openQueries()
        let subject = try resolveSubject(queries)
        let loader = ChartLoader(source: StoreChartSource(reader: queries, subject: subject), subject: subject, settings: settings)
        guard let span = try loader.span() else {
            printError("\(db): no glucose readings for '\(subject)'")
            throw ExitCode(1)
        }
        return (loader, span.last)
    }

    /// `--from`/`--to` (both or neither), `--date` as the last day, else `length` days ending at the last day with data.
    static func period(from: String?, to: String?, date: String?, length: Int, lastDay: Int64) throws -> (first: Int64, last: Int64) {
        if from != nil || to != nil {
            guard date == nil else { throw configFailure(ValidationError("give --date or --from/--to, not both")) }
            let last = try to.map { try day($0, option: "--to") } ?? lastDay
            let first = try from.map { try day($0, option: "--from") } ?? last - Int64(length) + 1
            guard first <= last else { throw configFailure(ValidationError("--from is after --to")) }
            guard last - first < 3660 else { throw configFailure(ValidationError("a period is at most ten years (3,660 days)")) }
            return (first, last)
        }
        let last = try date.map { try day($0, option: "--date") } ?? lastDay
        return (last - Int64(length) + 1, last)
    }
}

/// Writes output the safe way (temp file + rename), reporting failure as exit 1.
func writeOutput(_ text: String, to path: String) throws {
    do {
        try AtomicFile.write(Array(text.utf8), to: ComponentBuilder.resolve(path, base: FileManager.default.currentDirectoryPath), what: "output")
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
}
