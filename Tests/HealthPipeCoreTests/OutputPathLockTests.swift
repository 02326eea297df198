import Foundation
import HealthPipeCore
import Testing

/// Checking an output that this process already has open must not touch its locks: closing any
/// descriptor of a file drops every POSIX lock the process holds on it, and SQLite's locks on a
/// database open in the same process (the server's readers, the settings read before an import)
/// would vanish — seen as SQLITE_IOERR under `serve` with uploads beside day views.
@Suite struct OutputPathLockTests {
    @Test func checkingAFileKeepsThisProcesssLocksOnIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("h.sqlite").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        #expect(fcntl(fd, F_SETLK, &lock) == 0)

        _ = try OutputPath.check(path, what: "database")

        // Another process still finds the file locked.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import fcntl,sys; f=open(sys.argv[1],'r+'); fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)", path]
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus != 0, "the lock was released by the check")
    }
}
