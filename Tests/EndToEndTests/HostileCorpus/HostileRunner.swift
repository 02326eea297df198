import Foundation

/// Runs one hostile case against the real binary and lists every expectation it breaks.
enum HostileRunner {
    struct Outcome {
        var code: Int32
        var stdout: String
        var stderr: String
        /// Seconds from SIGTERM to the process's exit.
        var stopSeconds: Double?
        var timedOut: Bool
    }

    static var isRoot: Bool { getuid() == 0 }

    /// The binary under test; HOSTILE_CORPUS_BINARY points the corpus at another build (e.g. one
    /// without the fixes, to see every case fail there).
    static var binary: String { ProcessInfo.processInfo.environment["HOSTILE_CORPUS_BINARY"] ?? E2E.binary.path }

    static func run(_ c: HostileCase) throws -> [String] {
        let box = Sandbox()
        defer { try? FileManager.default.removeItem(at: box.root) }
        let invocation = try c.setup(box)
        let before = box.fingerprint()
        let outcome = try launch(invocation)
        let after = box.fingerprint()
        var problems: [String] = []
        let e = c.expect
        if outcome.timedOut { problems.append("did not finish within the time limit (a hang)") }
        if outcome.code != e.exit { problems.append("exit \(outcome.code), expected \(e.exit)") }
        if let n = e.measurements, box.count("measurements") != n {
            problems.append("\(box.count("measurements").map(String.init) ?? "no database") measurements, expected \(n)")
        }
        if let n = e.events, box.count("events") != n {
            problems.append("\(box.count("events").map(String.init) ?? "no database") events, expected \(n)")
        }
        if e.noDatabase, FileManager.default.fileExists(atPath: box.db) { problems.append("the database was created") }
        let rows = box.quarantinedRows(e.quarantineFile)
        if rows.count != e.quarantined.count {
            problems.append("\(rows.count) rows quarantined, expected \(e.quarantined.count): "
                            + rows.prefix(3).map { "\($0["line"] ?? "?"): \($0["reason"] ?? "?")" }.joined(separator: " | "))
        } else {
            for (row, want) in zip(rows, e.quarantined) {
                let line = (row["line"] as? NSNumber)?.int64Value
                let reason = row["reason"] as? String ?? ""
                if let l = want.line, line != l { problems.append("quarantined line \(line.map(String.init) ?? "?"), expected \(l)") }
                if !want.reason.isEmpty, !reason.contains(want.reason) { problems.append("quarantine reason '\(reason)' lacks '\(want.reason)'") }
                if let raw = want.raw, !((row["raw"] as? String) ?? "").contains(raw) {
                    problems.append("quarantined raw text lacks '\(raw)': \(String(describing: row["raw"] ?? "").prefix(200))")
                }
                if ((row["raw"] as? String) ?? "").utf8.count > e.rawLimit { problems.append("quarantined raw text is not capped") }
            }
        }
        for s in e.stderr where !outcome.stderr.contains(s) { problems.append("stderr lacks '\(s)'") }
        for s in e.stderrNot where outcome.stderr.contains(s) { problems.append("stderr says '\(s)'") }
        if outcome.stderr.utf8.count > e.stderrLimit { problems.append("stderr is \(outcome.stderr.utf8.count) bytes (echo not capped)") }
        if let limit = e.stopWithin {
            if let s = outcome.stopSeconds, s > limit { problems.append(String(format: "stopped %.2f s after SIGTERM (limit %.1f s)", s, limit)) }
        }
        for key in Set(before.keys).union(after.keys) where before[key] != after[key] && !e.writes.contains(key) {
            problems.append("\(key) was \(before[key] == nil ? "created" : after[key] == nil ? "deleted" : "changed")")
        }
        if let check = e.check { problems += try check(box) }
        if problems.count > 10 { problems = Array(problems.prefix(10)) + ["…"] }
        if !problems.isEmpty { problems.append("stderr: " + String(outcome.stderr.prefix(600))) }
        return problems
    }

    /// Every process started by `pid` (children, grandchildren…), from /proc: a hung case is ended
    /// whole, by process id.
    static func descendants(of pid: Int32) -> [Int32] {
        var parent: [Int32: Int32] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let p = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let pp = Int32(fields[1]) { parent[p] = pp }
        }
        var found: [Int32] = [], frontier = [pid]
        while let next = frontier.popLast() {
            for (child, pp) in parent where pp == next { found.append(child); frontier.append(child) }
        }
        return found
    }

    /// True while `pid` runs (not exited, not a zombie waiting to be reaped).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    static func launch(_ inv: Invocation, timeout: Double = 120) throws -> Outcome {
        // A child that exits without reading its standard input must not take the test process down.
        signal(SIGPIPE, SIG_IGN)
        let p = Process()
        var arguments = inv.arguments
        var executable = binary
        if inv.shell {
            arguments = ["-c", arguments.joined(separator: " ")]
            executable = "/bin/bash"
        }
        if inv.unprivileged, isRoot {
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
            executable = "/usr/bin/setpriv"
        }
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["HEALTHPIPE"] = binary
        env.removeValue(forKey: "HEALTHPIPE_PLUGIN_PATH")
        for (k, v) in inv.environment { env[k] = v }
        p.environment = env
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("hp-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        let outURL = logs.appendingPathComponent("out"), errURL = logs.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        p.standardInput = inv.stdin == nil ? FileHandle.nullDevice : input
        try p.run()
        if let data = inv.stdin {
            let writer = input.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: data)
                try? writer.close()
            }
        }
        let started = Date()
        var signalledAt: Date?
        var timedOut = false
        var stoppedAt: Date?
        let pid = p.processIdentifier
        while p.isRunning {
            let elapsed = Date().timeIntervalSince(started)
            if let after = inv.terminateAfter, signalledAt == nil, elapsed >= after {
                kill(pid, SIGTERM)
                signalledAt = Date()
            }
            // The process is gone (or a zombie) even if a grandchild keeps Foundation waiting.
            if signalledAt != nil, stoppedAt == nil, !isAlive(pid) { stoppedAt = Date() }
            if elapsed > timeout {
                timedOut = true
                for child in descendants(of: pid) { kill(child, SIGKILL) }
                kill(pid, SIGKILL)
                break
            }
            usleep(10_000)
        }
        p.waitUntilExit()
        let stop = signalledAt.map { (stoppedAt ?? Date()).timeIntervalSince($0) }
        return Outcome(code: p.terminationStatus, stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                       stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self),
                       stopSeconds: stop, timedOut: timedOut)
    }
}
