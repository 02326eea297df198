import ArgumentParser
import Foundation
import HealthPipeCore
import PostgresStore

/// `--db`, declared once: the database a command reads or writes (swift-argument-parser's option
/// groups are the model). The commands that need no database (`metrics --input`, `evaluate
/// --input`, `stream` without storing) take `OptionalStoreOptions`, with the same help.
struct StoreOptions: ParsableArguments {
    @Option(help: StoreOptions.help) var db: String

    static let help = ArgumentHelp("The HealthPipe database, a SQLite file (`import`, `reaggregate`, `chart day|agp|days` and `page` also take PostgreSQL: "
                                   + "postgresql://user@host/db; postgresql:// alone takes the PG* variables).")

    var location: StoreLocation { StoreLocation(db) }
}

/// `--db` for the commands where a database is one choice among others.
struct OptionalStoreOptions: ParsableArguments {
    @Option(help: StoreOptions.help) var db: String?

    var location: StoreLocation? { db.map(StoreLocation.init) }
}

/// `--subject`, declared once: whose data. Every command that takes it resolves a missing one by
/// `SubjectRule` (the views: by the subjects with glucose readings).
struct SubjectOption: ParsableArguments {
    @Option(help: ArgumentHelp("Whose data: every row's subject column (default: the database's only subject — for the glucose "
                               + "views, the only one with glucose readings — and `default` in a new database)."))
    var subject: String?
}

/// What `--db` names: a SQLite file (resolved against the working directory) or a PostgreSQL URL,
/// and the one check that it exists.
struct StoreLocation {
    /// As the user typed it, for messages.
    let shown: String

    init(_ shown: String) { self.shown = shown }

    var isPostgres: Bool { PostgresURL.isURL(shown) }

    /// The SQLite file's absolute path (SQLite-only commands).
    var path: String { ComponentBuilder.resolve(shown, base: FileManager.default.currentDirectoryPath) }

    /// The store for commands that take either: the URL as given, else the file's absolute path.
    var pathOrURL: String { isPostgres ? shown : path }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The file, which must exist: a view, a re-aggregation or an edit of a missing file is an error
    /// (exit 1), never an empty result or a new file. `hint` says how such a database is made.
    func existingPath(hint: String? = nil) throws -> String {
        guard exists else {
            printError("\(shown): no such database" + (hint.map { " (\($0))" } ?? ""))
            throw ExitCode(1)
        }
        return path
    }

    /// The same check for the health log, where a missing database is a usage mistake (exit 2)
    /// named by its option.
    func existingPathForUsage() throws -> String {
        guard exists else { throw usage("--db \(shown): no such database") }
        return path
    }
}
