import Foundation

/// Debian's chromium, headless, as the browser tests drive it (scripts/setup.sh installs it).
/// Each run gets a fresh profile, a net log, and no way to resolve any host but 127.0.0.1.
enum Chromium {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "chromium is not installed: run scripts/setup.sh (it installs Debian's chromium for the browser tests)" }
    }

    static func binary() throws -> String {
        for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] where FileManager.default.isExecutableFile(atPath: p) { return p }
        throw Missing()
    }

    struct Run {
        var stdout: String
        /// URLs the page itself asked for (net log requests initiated by its origin).
        var pageRequests: [String]
    }

    /// Runs chromium on `url` with `mode` (e.g. ["--dump-dom"] or ["--screenshot=…", "--window-size=…"]).
    static func run(_ url: String, _ mode: [String], origin: String? = nil) throws -> Run {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("hp-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let netLog = work.appendingPathComponent("net.json").path
        var args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                    "--disable-background-networking", "--disable-extensions", "--hide-scrollbars",
                    "--user-data-dir=" + work.appendingPathComponent("profile").path, "--log-net-log=" + netLog,
                    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1", "--virtual-time-budget=3000"]
        args += mode + [url]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try binary())
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let killer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        return Run(stdout: String(decoding: data, as: UTF8.self), pageRequests: origin.map { requests(netLog: netLog, initiator: $0) } ?? [])
    }

    /// Requests in the net log whose initiator is `initiator` (the browser's own update checks have none).
    static func requests(netLog: String, initiator: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: netLog),
              let log = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let constants = log["constants"] as? [String: Any], let types = constants["logEventTypes"] as? [String: Int],
              let start = types["URL_REQUEST_START_JOB"], let events = log["events"] as? [[String: Any]] else { return ["(no net log)"] }
        return events.compactMap { e in
            guard e["type"] as? Int == start, let p = e["params"] as? [String: Any], p["initiator"] as? String == initiator else { return nil }
            return p["url"] as? String
        }
    }
}
