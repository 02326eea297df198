import Foundation
import HealthPipeStore

/// The one subject rule of the commands that read or write one person's log: `--subject`, else
/// the database's only subject (whatever it holds: readings, events, reports, entries), else a
/// usage error listing the subjects. A database that holds no one yet (or does not exist yet)
/// takes `default`, the subject an import without `--subject` writes.
enum SubjectRule {
    static let newStore = "default"

    static func resolve(_ explicit: String?, database path: String, label: String) throws -> String {
        if let explicit { return explicit }
        guard FileManager.default.fileExists(atPath: path) else { return newStore }
        return try resolve(explicit, store: SQLiteHealthStore(path: path), label: label)
    }

    /// The rule over any store (a PostgreSQL store holds readings and events only).
    static func resolve(_ explicit: String?, store: HealthStore, label: String) throws -> String {
        if let explicit { return explicit }
        guard let subjects = try? store.allSubjects() else { return newStore }  // not a store: the command says so
        if let implied = implied(by: subjects) { return implied }
        throw usage("\(label): the database holds several subjects (\(listed(subjects))): choose one with --subject")
    }

    /// The subject a store's subjects imply: its only one, `default` for none, nil for several.
    static func implied(by subjects: [String]) -> String? {
        subjects.count <= 1 ? subjects.first ?? newStore : nil
    }

    static func listed(_ subjects: [String]) -> String {
        subjects.prefix(10).joined(separator: ", ") + (subjects.count > 10 ? ", … (\(subjects.count) in all)" : "")
    }
}
