import Foundation
import HealthPipeCore
import ZipReading

/// Checks that a registered file source reads the same bytes the same way however they arrive: by
/// path, on standard input (`-`, a pipe), through a named pipe (FIFO), and handed over one byte per
/// read (`ByteInput.provide(readSize: 1)`). Every run must give the same records (every field), the
/// same provenance lines, the same quarantined rows (line, reason, raw text), the same warnings, the
/// same counts and content hash, and — for a file it refuses — the same error.
///
/// What legitimately differs and is not compared: the name of the input (the path, `-`, the FIFO's
/// path or the in-memory name), set aside wherever the source reports it (provenance, quarantine rows,
/// error texts, the input's `path`) — a name the records carry as data (an NDJSON record's own
/// provenance) must still be equal — and the size, which a stream does not know (0).
///
/// A source whose detector claims the fixture as a regular file but not from a stream (its
/// descriptor's `detect` scores it 0 with `isRegularFile: false`: a workbook or zip read at random)
/// declares that it cannot read a pipe: from a pipe it must then fail with an error that names the
/// input and says why (pipe, stream, standard input, save it to a file), never crash or return nothing.
/// Such a source is not fed byte by byte either (it opens its path itself), nor is any zip fixture.
public struct SourceVerifier {
    public enum Way: String, CaseIterable, Sendable {
        case path, standardInput = "standard input", fifo = "named pipe", byteByByte = "one byte per read"
    }

    /// One run, reduced to what must be equal between the ways.
    struct Run {
        var way: Way
        var inputName: String
        var output: SourceOutput
    }

    public let component: ComponentDescriptor
    public let registry: ComponentRegistry?
    public var settings: RunSettings

    public init(component: ComponentDescriptor, registry: ComponentRegistry?,
                settings: RunSettings = RunSettings(timezone: "Europe/London", subject: "verify", baseDirectory: "/")) {
        self.component = component
        self.registry = registry
        self.settings = settings
    }

    /// What the verification found: `problems` is empty when every way agreed.
    public struct Report: Sendable {
        public var problems: [String] = []
        /// Records and quarantined rows of the run by path (a fixture that yields neither tests nothing).
        public var records = 0
        public var quarantined = 0
        /// The source declared (by its detector) that it needs a regular file.
        public var needsRegularFile = false
        public var ways: [Way] = []
    }

    /// Runs the source on `fixture` every way and compares each run with the run by path.
    public func verify(fixture: String) throws -> Report {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture)))
        let prefix = Array(bytes.prefix(FileSniff.defaultLimit))
        var report = Report()
        let asFile = component.detect?(FileSniff(path: fixture, prefix: prefix)) ?? 0
        let asStream = component.detect?(FileSniff(path: "-", prefix: prefix, isRegularFile: false)) ?? 0
        if asFile == 0 { report.problems.append("\(component.name) does not detect its own fixture \(fixture)") }
        report.needsRegularFile = asFile > 0 && asStream == 0

        let byPath = try run(.path, inputName: fixture) { fixture }
        report.records = byPath.output.batches.reduce(0) { $0 + $1.count }
        report.quarantined = byPath.output.quarantineLines.count
        report.ways = [.path]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hp-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent(URL(fileURLWithPath: fixture).lastPathComponent).path
        let memory = "/hp-verify-memory/" + URL(fileURLWithPath: fixture).lastPathComponent

        var others: [Run] = []
        others.append(try StandardInputLock.withLock { try run(.standardInput, inputName: "-") { try StreamFeed.standardInput(bytes) } })
        others.append(try run(.fifo, inputName: fifo) { try StreamFeed.fifo(at: fifo, bytes) })
        // A zip is read at random from a file (a streamed one is first copied to one), never through
        // `ByteInput`'s reads, so one byte per read does not apply to it.
        if !report.needsRegularFile && !ZipArchive.hasMagic(bytes) {
            others.append(try run(.byteByByte, inputName: memory) {
                ByteInput.provide(bytes, as: memory, readSize: 1)
                return memory
            })
        }
        for other in others {
            report.ways.append(other.way)
            if report.needsRegularFile {
                report.problems += refusal(other)
            } else {
                report.problems += RunComparison(expected: byPath, actual: other).differences()
            }
        }
        return report
    }

    /// Builds the source for `way`'s input, feeds it (`start` returns the path to give the source) and
    /// collects what it emits. The feeding ends before this returns, whatever the source did.
    private func run(_ way: Way, inputName: String, start: () throws -> String) throws -> Run {
        let path = try start()
        defer { StreamFeed.finish(path) }
        let source = try SourceRunner.build(component, path: path, options: timezoneOption,
                                            settings: settings, registry: registry)
        if way == .standardInput || way == .fifo {
            // As `healthpipe import` does: format detection reads a prefix, the source takes the stream over.
            _ = try FileSniff.read(path: path)
        }
        let output = SourceRunner.collect(source, type: component.name, policy: .quarantine)
        return Run(way: way, inputName: inputName, output: output)
    }

    /// Only the options a component takes: a component's options are decoded strictly.
    private var timezoneOption: String {
        guard let zone = settings.timezone, component.options.contains(where: { $0.name == "timezone" }) else { return "" }
        return "timezone: \(zone)\n"
    }

    /// A source that needs a regular file, given a stream: a clear error, nothing emitted.
    private func refusal(_ run: Run) -> [String] {
        let label = "\(component.name) from \(run.way.rawValue)"
        guard let error = run.output.error else {
            return ["\(label): needs a regular file (its detector says so) but read a stream without an error "
                    + "(\(run.output.batches.reduce(0) { $0 + $1.count }) records)"]
        }
        let text = String(describing: error)
        let says = ["pipe", "stream", "standard input", "save it to a file", "seek"].contains { text.lowercased().contains($0) }
        let names = text.contains(run.inputName) || (run.inputName == "-" && text.lowercased().contains("standard input"))
        return says && names ? [] : ["\(label): the error does not say clearly that a stream cannot be read: \(text)"]
    }
}

/// Standard input is one per process: runs that put a pipe on it take turns.
enum StandardInputLock {
    private static let lock = NSLock()
    static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
