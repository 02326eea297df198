import Foundation
import HealthPipeTestSupport

/// A throw-away PostgreSQL server for one test: `initdb` into the test's temporary folder, started by
/// `pg_ctl` on 127.0.0.1 and a free port (password authentication over TCP), stopped by its PID.
/// Under root the server runs as the `postgres` user (PostgreSQL refuses to run as root).
final class PostgresServer {
    let dir: URL
    let port: Int
    let bin: URL
    static let user = "hp"
    static let password = "Pw-7f3q-never-shown"

    /// Where initdb and pg_ctl are: HEALTHPIPE_PG_BIN, PATH, then Debian's /usr/lib/postgresql/<version>/bin.
    static var binaries: URL? {
        var dirs: [String] = []
        if let d = ProcessInfo.processInfo.environment["HEALTHPIPE_PG_BIN"] { dirs.append(d) }
        dirs += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        dirs += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        for d in dirs where ["initdb", "pg_ctl", "psql"].allSatisfy({ FileManager.default.isExecutableFile(atPath: d + "/" + $0) }) {
            // /usr/local/bin may hold links to the real folder, which also has psql.
            return URL(fileURLWithPath: d).resolvingSymlinksInPath()
        }
        return nil
    }

    /// Why the server cannot run here, or nil.
    static var unavailable: String? {
        guard binaries != nil else { return "PostgreSQL binaries (initdb, pg_ctl, psql) not found: install postgresql-15 (scripts/setup.sh)" }
        if getuid() == 0, getpwnam("postgres") == nil { return "running as root without a 'postgres' user to run the server as" }
        return nil
    }
    /// Whether the PostgreSQL suites run: where the server can run, and always under CI (`CI` set, as
    /// `.ci/run` has it, or HEALTHPIPE_REQUIRE_POSTGRES), where scripts/setup.sh installed it — there a server
    /// that cannot start fails the suites instead of skipping them.
    static var available: Bool { unavailable == nil || required }
    static var required: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false || environment["HEALTHPIPE_REQUIRE_POSTGRES"] != nil
    }

    init() throws {
        if let why = Self.unavailable { throw Failure("PostgreSQL cannot run here: \(why)") }
        guard let bin = Self.binaries else { throw Failure("no PostgreSQL binaries") }
        self.bin = bin
        dir = E2E.tempDir().appendingPathComponent("pg")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        port = try Self.freePort()
        try Data(Self.password.utf8).write(to: dir.appendingPathComponent("pw"))
        if getuid() == 0, let pw = getpwnam("postgres") {
            chown(dir.path, pw.pointee.pw_uid, pw.pointee.pw_gid)
            chown(dir.appendingPathComponent("pw").path, pw.pointee.pw_uid, pw.pointee.pw_gid)
            chown(dir.deletingLastPathComponent().path, pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
        try run("initdb", ["-D", data, "-U", Self.user, "-E", "UTF8", "--no-locale", "-N", "--auth-local=trust",
                           "--auth-host=scram-sha-256", "--pwfile=" + dir.appendingPathComponent("pw").path])
        try run("pg_ctl", ["-D", data, "-l", dir.appendingPathComponent("log").path, "-w", "-t", "60", "start", "-o",
                           "-p \(port) -k \(dir.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40"])
    }

    var data: String { dir.appendingPathComponent("data").path }

    /// The server's PID, from postmaster.pid.
    var pid: pid_t? {
        guard let text = try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// Fast shutdown by PID (SIGINT), waited for; SIGKILL after 30 s. Removes the folder.
    func stop() {
        if let pid {
            kill(pid, SIGINT)
            let deadline = Date().addingTimeInterval(30)
            while kill(pid, 0) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: dir.deletingLastPathComponent())
    }

    /// A URL with the password in it (the tests check it never shows), or without (PGPASSWORD).
    func url(_ database: String, password: Bool = true) -> String {
        "postgresql://\(Self.user)\(password ? ":" + Self.password : "")@127.0.0.1:\(port)/\(database)"
    }

    func createDatabase(_ name: String) throws { _ = try query("postgres", "CREATE DATABASE \(name)") }

    /// Rows of text cells (NULL as "NULL") through psql.
    @discardableResult
    func query(_ database: String, _ sql: String) throws -> [[String]] {
        let p = Process()
        p.executableURL = bin.appendingPathComponent("psql")
        p.arguments = [url(database), "-X", "-q", "-At", "-F", "\u{1F}", "-P", "null=NULL", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw Failure("psql: \(String(decoding: e, as: UTF8.self))") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
    }

    func scalar(_ database: String, _ sql: String) throws -> String { try query(database, sql).first?.first ?? "" }

    /// Runs a server tool and waits for it, with posix_spawn and waitpid: Foundation's Process learns
    /// of an exit through a descriptor the child inherits, which the server pg_ctl starts would keep open.
    private func run(_ tool: String, _ args: [String]) throws {
        let argv = (getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [bin.appendingPathComponent(tool).path] + args
        let errPath = dir.appendingPathComponent("\(tool).err").path
        guard let pid = try? ChildProcess.spawn(argv, stderrPath: errPath) else { throw Failure("cannot start \(tool)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else {
            throw Failure("\(tool) failed (\(status)): \((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")")
        }
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw Failure("no free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}
