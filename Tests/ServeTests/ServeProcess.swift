import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HealthPipeTestSupport

/// A real `healthpipe serve` process on a free loopback port, stopped by SIGTERM as a service
/// manager stops it.
final class ServeProcess {
    static let packageRoot = Repository.root

    static var binary: URL {
        if let other = ProcessInfo.processInfo.environment["HEALTHPIPE_BINARY"] { return URL(fileURLWithPath: other) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("healthpipe")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/healthpipe")
    }

    static func tempDir() -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("hp-serve-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    let process = Process()
    let stderrURL: URL
    private(set) var port = 0
    var base: String { "http://127.0.0.1:\(port)" }

    /// Starts `serve` with `arguments` (besides `--port 0`) and waits for its "serving" line.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let dir = Self.tempDir()
        stderrURL = dir.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = Self.binary
        process.arguments = ["serve"] + arguments + ["--port", "0"]
        var env = ProcessInfo.processInfo.environment
        env["API_SECRET"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("serving ") }),
               let range = line.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = Int(line[range].split(separator: ":")[1])!
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw ServeTestError("serve did not start: \(stderr)")
    }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status.
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
}

struct ServeTestError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// One HTTP exchange through URLSession (a real client), waited for.
struct HTTPExchange {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: body) }

    static func send(_ url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) throws -> HTTPExchange {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        final class Box: @unchecked Sendable { var result: Result<HTTPExchange, any Error>? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error { box.result = .failure(error) } else {
                let r = response as! HTTPURLResponse
                var h: [String: String] = [:]
                for (k, v) in r.allHeaderFields { h[String(describing: k).lowercased()] = String(describing: v) }
                box.result = .success(HTTPExchange(status: r.statusCode, headers: h, body: data ?? Data()))
            }
            done.signal()
        }.resume()
        done.wait()
        return try box.result!.get()
    }
}
