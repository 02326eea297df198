import ArgumentParser
import BuiltinPlugins
import Charts
import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeStore
import PostgresStore
import SQLiteStore

/// The store a view reads and whose data (`chart`'s views and `page`): the database must exist and
/// the subject is the one with glucose readings unless `--subject` names one.
struct ChartOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions
    @OptionGroup var subjectOption: SubjectOption

    var db: String { store.db }
    var subject: String? { subjectOption.subject }
    /// The database as messages name it (a PostgreSQL password never shows).
    var shownDB: String { store.location.isPostgres ? PostgresURL(db).shown : db }

    /// The bands the database classifies with (its stored derivation settings); nil when it keeps
    /// none (the views then go by the stored band labels).
    func storedScheme() -> BandScheme? { StoredBands.scheme(at: store.location.pathOrURL) }

    /// The view settings of a glucose view's options; the bands of `--preset`, else of the store.
    func settings(unit: UnitOption, preset: PresetOption? = nil, day: DayViewOptions? = nil) throws -> ViewSettings {
        var s = ViewSettings()
        s.unit = unit.unit
        if let day {
            s.model = day.model.model
            s.showBasal = day.basal == .on
            s.today = try day.today.day()
        }
        s.scheme = preset?.preset?.scheme ?? storedScheme()
        return s
    }

    /// A `--date`/`--from`/`--to`/`--today` value.
    static func day(_ text: String, option: String) throws -> Int64 {
        guard let d = CivilDate.days(fromISO: text) else { throw configFailure(ValidationError("\(option) is a date YYYY-MM-DD (got '\(text)')")) }
        return d
    }

    /// The database path, which must exist: a chart of a missing file is an error, not an empty chart.
    /// For what only a SQLite store keeps (toothbrushing sessions, health reports): a PostgreSQL
    /// store is refused with the reason.
    func databasePath() throws -> String {
        guard !store.location.isPostgres else {
            printError("\(PostgresURL(db).shown): toothbrushing sessions and health reports are kept in a SQLite database only")
            throw ExitCode(1)
        }
        return try store.location.existingPath(hint: "create it with `healthpipe import FILE --db \(db)`")
    }

    /// The store the glucose views read: a SQLite file (which must exist) or a PostgreSQL database.
    func openStore() throws -> HealthStore {
        store.location.isPostgres ? HealthStores.at(db) : SQLiteHealthStore(path: try databasePath())
    }

    /// The SQLite file, when the store is one (what the views of a person's log read besides glucose).
    func sqlitePath() throws -> String? { store.location.isPostgres ? nil : try databasePath() }

    func openQueries() throws -> StoreReader {
        let store = try openStore()
        do { return try store.reader() } catch {
            printError("\(store.name): \(store.redact("\(error)"))")
            throw ExitCode(1)
        }
    }

    /// `--subject`, else the one subject with glucose readings.
    func resolveSubject(_ q: StoreReader) throws -> String {
        // A meter user's glucose is their finger-stick checks: they are charted too (issue 38). The
        // default person stays the one with CGM readings where there is one.
        let cgm = try q.subjects(), checks = try q.subjects(metric: "blood_glucose")
        let subjects = cgm.isEmpty ? checks : cgm
        if let subject {
            guard cgm.contains(subject) || checks.contains(subject) else {
                printError("\(shownDB): no glucose readings for subject '\(subject)'" + (subjects.isEmpty ? "" : " (subjects with glucose: \(subjects.joined(separator: ", ")))"))
                throw ExitCode(1)
            }
            return subject
        }
        switch subjects.count {
        case 0:
            printError("\(shownDB): no glucose readings to chart")
            throw ExitCode(1)
        case 1: return subjects[0]
        default:
            printError("\(shownDB): several subjects have glucose readings (\(subjects.joined(separator: ", "))): choose one with --subject")
            throw ExitCode(2)
        }
    }

    /// A loader over the store for the subject, and the subject's last day with readings (exit 1 when it has none).
    func openLoader(_ settings: ViewSettings, queries opened: StoreReader? = nil) throws -> (loader: ChartLoader, lastDay: Int64) {
        let queries = try opened ?? openQueries()
        let subject = try resolveSubject(queries)
        let loader = ChartLoader(source: StoreChartSource(reader: queries, subject: subject), subject: subject, settings: settings)
        guard let span = try loader.span() else {
            printError("\(shownDB): no glucose readings for '\(subject)'")
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

/// The glucose unit of the views that draw glucose (`chart day|agp|days`, `page`).
struct UnitOption: ParsableArguments {
    @Option(help: "Glucose unit; mmol/L draws the seeds' 0–20 axis.") var unit: DisplayUnit = .mmolL
}

/// The bands of the views that draw them (`chart day|days`, `page`).
struct PresetOption: ParsableArguments {
    @Option(help: "Bands (default: the preset the store was classified with).") var preset: BandPresetName?
}

/// What only the day view draws: basal insulin and the forecast, and which day counts as today.
struct DayViewOptions: ParsableArguments {
    @Option(help: "Show basal insulin on the day view.") var basal: BasalShown = .on
    @Option(help: "Forecast model of the day view.") var model = DayForecastModel(.ridge)
    @OptionGroup var today: TodayOption
}

/// `--today`: count this local date as today (the day view's navigation, the history's anchor).
struct TodayOption: ParsableArguments {
    @Option(help: "Count this local date (YYYY-MM-DD) as today (default: the real date).") var today: String?

    func day() throws -> Int64? { try today.map { try ChartOptions.day($0, option: "--today") } }
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

/// The bands a store classifies with (its stored derivation settings), for `chart`, `page` and
/// `serve`; nil when it keeps none (the views then go by the stored band labels).
package enum StoredBands {
    package static func scheme(at pathOrURL: String) -> BandScheme? {
        guard let settings = try? StoreDerivation.stored(pathOrURL), let classify = settings["classify"],
              let registry = try? BuiltinPlugins.builtInRegistry(), let component = registry.component(named: "classify") else { return nil }
        let doc = classify.document ?? ConfigDocument(command: "stored settings", root: classify.options)
        let builder = ComponentBuilder(stageName: "classify", document: doc, node: classify.options, settings: RunSettings())
        return ((try? component.build(builder)) as? ClassifyTransform)?.scheme
    }
}
