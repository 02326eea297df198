import Foundation
import Synchronization

/// The (subject, metric, source) groups of `measurements` that hold at least one grid row
/// (interpolated flag). A group of grid rows answers at its first row; a group of readings takes a
/// scan of all of them (no index covers the flag).
enum StoredGridGroups {
    static func all(_ db: SQLiteConnection) throws -> [MeasurementGroup] {
        let probe = try db.prepare("""
            SELECT 1 FROM measurements WHERE subject = ?1 AND metric = ?2 AND source = ?3
              AND \(DerivedTables.interpolatedMeasurements) LIMIT 1
            """)
        return try MeasurementGroups.all(db).filter { g in
            probe.reset()
            try probe.bindText(1, g.subject)
            try probe.bindText(2, g.metric)
            try probe.bindText(3, g.source)
            return try probe.step()
        }
    }
}

/// Finds `StoredGridGroups` as the last commit left them, on a thread and read-only connection of
/// its own, while the rewrite's stages run: the scan of the readings then costs the run no time
/// (the rewrite's open transaction changes nothing a reader sees).
final class StoredGridGroupsSurvey: Sendable {
    private let result = Mutex<Result<[MeasurementGroup], any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        let t = Thread { [self] in
            let r = Result { () throws -> [MeasurementGroup] in
                let db = try SQLiteConnection.open(path: path, readOnly: true)
                try db.execute("BEGIN")
                defer { try? db.execute("COMMIT") }
                return try StoredGridGroups.all(db)
            }
            result.withLock { $0 = r }
            done.signal()
        }
        t.name = "grid survey"
        t.start()
    }

    /// Waits for the survey.
    func groups() throws -> [MeasurementGroup] {
        done.wait()
        done.signal()
        return try result.withLock { $0! }.get()
    }
}
