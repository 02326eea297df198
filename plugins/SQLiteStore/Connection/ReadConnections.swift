import Glibc

/// Read-only connections kept open on a thread between calls, for a long-running process (`serve`
/// reads inside `keeping` on its reading threads): a request then neither opens the database nor
/// parses its schema again for each query object it makes — that was a tenth of a day view's work.
/// A kept connection sees every commit (no transaction stays open: statements end with the objects
/// that made them); one is reopened when the file at its path is no longer the one it opened.
public enum ReadConnections {
    final class Kept {
        var active = false
        var byPath: [String: (connection: SQLiteConnection, device: UInt64, inode: UInt64)] = [:]
    }

    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k) { box in box.map { Unmanaged<Kept>.fromOpaque($0).release() } }
        return k
    }()

    private static var kept: Kept {
        if let p = pthread_getspecific(key) { return Unmanaged<Kept>.fromOpaque(p).takeUnretainedValue() }
        let k = Kept()
        pthread_setspecific(key, Unmanaged.passRetained(k).toOpaque())
        return k
    }

    /// Runs `body` with this thread's read-only connections kept for its next calls. The objects
    /// `body` makes must not outlive it on another thread (a connection serves one thread).
    public static func keeping<T>(_ body: () throws -> T) rethrows -> T {
        let k = kept
        let outer = k.active
        k.active = true
        defer { k.active = outer }
        return try body()
    }

    /// A read-only connection to `path`: this thread's kept one inside `keeping`, else a new one.
    public static func open(_ path: String) throws -> SQLiteConnection {
        guard let k = pthread_getspecific(key).map({ Unmanaged<Kept>.fromOpaque($0).takeUnretainedValue() }), k.active else {
            return try SQLiteConnection(path: path, readOnly: true)
        }
        var s = stat()
        let found = stat(path, &s) == 0 ? (UInt64(s.st_dev), UInt64(s.st_ino)) : nil
        if let c = k.byPath[path], let found, c.device == found.0, c.inode == found.1 { return c.connection }
        let connection = try SQLiteConnection(path: path, readOnly: true)
        if let found { k.byPath[path] = (connection, found.0, found.1) } else { k.byPath[path] = nil }
        return connection
    }
}
