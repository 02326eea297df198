/// Where a command that writes a database puts rejected rows unless told: beside the database,
/// `h.sqlite` → `h.quarantine.ndjson`. The one place that rule lives.
enum DefaultQuarantine {
    static func beside(database path: String) -> String {
        (path.hasSuffix(".sqlite") ? String(path.dropLast(7)) : path) + ".quarantine.ndjson"
    }
}
