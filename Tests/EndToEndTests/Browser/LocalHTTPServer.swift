import Foundation
#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#endif

/// A one-file HTTP server on 127.0.0.1 that logs every path asked for: the browser test serves
/// the page from it, so any request the page makes (a script, a font, a relative image, a favicon)
/// shows up in `requests`. Under `/nojs` the same page comes with a Content-Security-Policy that
/// blocks every script: the page as a reader with JavaScript off gets it (chromium's own
/// `scriptEnabled=false` also stops its headless DOM dump and screenshots).
final class LocalHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let socket: Int32
    private let body: Data
    private let path: String
    private let lock = NSLock()
    private var log: [String] = []
    private var thread: Thread?

    var requests: [String] { lock.lock(); defer { lock.unlock() }; return log }

    init(serving file: URL, at path: String) throws {
        body = try Data(contentsOf: file)
        self.path = path
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        socket = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = UInt16(bigEndian: addr.sin_port)
        // The thread keeps the server alive until `stop()` makes accept() fail.
        let t = Thread { [self] in self.serve() }
        thread = t
        t.start()
    }

    var url: String { "http://127.0.0.1:\(port)" + path }
    var origin: String { "http://127.0.0.1:\(port)" }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            if client < 0 { return }
            var buffer = [UInt8](repeating: 0, count: 8192)
            let n = read(client, &buffer, buffer.count)
            let request = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
            // A speculative connection the browser opens and closes sends no request at all.
            guard let target = request.split(separator: " ").dropFirst().first.map(String.init) else { close(client); continue }
            lock.lock(); log.append(target); lock.unlock()
            let noScript = target == "/nojs" + path
            let ok = target == path || noScript
            let payload = ok ? body : Data("not found".utf8)
            let head = "HTTP/1.1 \(ok ? "200 OK" : "404 Not Found")\r\nContent-Type: \(ok ? "text/html; charset=utf-8" : "text/plain")\r\n"
                + (noScript ? "Content-Security-Policy: script-src 'none'\r\n" : "")
                + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
            var out = Data(head.utf8)
            out.append(payload)
            _ = out.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            close(client)
        }
    }

    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
