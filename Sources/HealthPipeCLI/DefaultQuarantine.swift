import Foundation
import PostgresStore

/// Where a command that writes a database puts rejected rows unless told: beside the database,
/// `h.sqlite` → `h.quarantine.ndjson`; a PostgreSQL database has no folder, so `quarantine.ndjson`
/// in the working directory. The one place that rule lives.
enum DefaultQuarantine {
    static func beside(database path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        if PostgresURL.isURL(path) { return URL(fileURLWithPath: workingDirectory).appendingPathComponent("quarantine.ndjson").path }
        return (path.hasSuffix(".sqlite") ? String(path.dropLast(7)) : path) + ".quarantine.ndjson"
    }
}
