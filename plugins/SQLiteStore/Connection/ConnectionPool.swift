import Foundation
import Synchronization

/// Connections kept open between uses, for a long-running process (`serve` keeps its database's):
/// a request or an upload then neither opens the file, nor parses the schema, nor compiles its
/// statements again — they were two thirds of an upload's work and a tenth of a day view's. A
/// connection is leased to one holder at a time (`SQLiteConnection.open`) and comes back when its
/// holder lets go; its statements come back reset, without bindings, for the next holder's
/// `prepare` of the same SQL. A connection still inside a transaction is closed, not kept (closing
/// rolls it back), and one whose file is no longer the one at its path is never handed out.
/// Paths nobody asked to keep are not pooled: every other process opens and closes as before.
public enum ConnectionPool {
    struct Key: Hashable {
        let path: String
        let readOnly: Bool
    }

    /// Idle connections kept per database and mode beyond which a returned one is closed.
    static let idlePerKey = 8

    private struct State {
        var kept: Set<String> = []
        var idle: [Key: [OpenDatabase]] = [:]
    }

    private static let state = Mutex(State())

    /// Keeps connections to the database at `path` (both modes) for the life of the process, or
    /// until `stopKeeping`.
    public static func keep(_ path: String) {
        let path = normalized(path)
        state.withLock { _ = $0.kept.insert(path) }
    }

    /// Stops keeping `path`'s connections and closes the idle ones.
    public static func stopKeeping(_ path: String) {
        let path = normalized(path)
        let closed = state.withLock { s -> [OpenDatabase] in
            s.kept.remove(path)
            let mine = s.idle.keys.filter { $0.path == path }
            return mine.flatMap { s.idle.removeValue(forKey: $0) ?? [] }
        }
        _ = closed  // closed as they go out of scope, outside the lock
    }

    /// The key a connection to `path` is pooled under, nil when `path` is not kept.
    static func key(_ path: String, readOnly: Bool) -> Key? {
        let path = normalized(path)
        return state.withLock { $0.kept.contains(path) } ? Key(path: path, readOnly: readOnly) : nil
    }

    /// An idle connection for `key` whose file is still the one at its path, if there is one.
    static func take(_ key: Key) -> OpenDatabase? {
        let identity = OpenDatabase.identity(of: key.path)
        var stale: [OpenDatabase] = []
        defer { _ = stale }
        return state.withLock { s -> OpenDatabase? in
            while let db = s.idle[key]?.popLast() {
                if let identity, db.identity == identity { return db }
                stale.append(db)
            }
            return nil
        }
    }

    /// Takes back a leased connection that no holder uses any more.
    static func giveBack(_ db: OpenDatabase, key: Key) {
        guard !db.isInTransaction else { return }  // closed, so rolled back
        let extra = state.withLock { s -> OpenDatabase? in
            guard s.kept.contains(key.path), s.idle[key, default: []].count < idlePerKey else { return db }
            s.idle[key, default: []].append(db)
            return nil
        }
        _ = extra
    }

    /// One spelling per file for a path (absolute, `.` and `..` resolved): the sink and the server
    /// may name the same database differently.
    static func normalized(_ path: String) -> String {
        guard path != ":memory:", !path.hasPrefix("file:") else { return path }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
