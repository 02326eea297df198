import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import ZIPFoundation
@testable import AppleHealth

/// Runs the Apple Health source on a file and collects what it emits.
struct SourceRun {
    var measurements: [HealthPipeCore.Measurement] = []
    var events: [Event] = []
    var profiles: [SubjectProfile] = []
    var rejects: [RowError] = []
    var input: InputFileInfo?
    var warnings: [String] = []
    var progress: (done: Int64, total: Int64) = (0, 0)

    func metric(_ name: String) -> [HealthPipeCore.Measurement] { measurements.filter { $0.metric.text == name } }
}

enum Samples {
    static let root = Repository.url("samples/apple-health")
    static let healthkit = root.appendingPathComponent("healthkit-to-sqlite_tests_export.xml").path
    static let parser = root.appendingPathComponent("apple-health-parser_tests_export.xml").path
    static let zip = root.appendingPathComponent("healthkit-to-sqlite_export.zip").path
    static let zipContents = root.appendingPathComponent("healthkit-to-sqlite_zip_contents")
}

func tempDir() -> URL {
    let u = FileManager.default.temporaryDirectory.appendingPathComponent("hp-apple-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
    return u
}

func write(_ text: String, _ name: String = "export.xml") throws -> String {
    let url = tempDir().appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// A HealthData document around `body`, with the given prolog.
func healthXML(_ body: String, prolog: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") -> String {
    prolog + "<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-06-01 08:10:05 +0200\"/>\n" + body + "</HealthData>\n"
}

/// A Record element.
func record(_ type: String, value: String? = "1", unit: String? = nil, source: String = "Phone",
            start: String = "2024-01-02 10:00:00 +0100", end: String? = nil, children: String = "") -> String {
    var s = " <Record type=\"\(type)\" sourceName=\"\(source)\""
    if let unit { s += " unit=\"\(unit)\"" }
    s += " startDate=\"\(start)\" endDate=\"\(end ?? start)\""
    if let value { s += " value=\"\(value)\"" }
    return children.isEmpty ? s + "/>\n" : s + ">\n" + children + " </Record>\n"
}

func read(_ path: String, types: [String] = [], exclude: [String] = [], sources: [String] = [],
          from: Int64? = nil, to: Int64? = nil, zone: String? = nil) throws -> SourceRun {
    var options = AppleHealthOptions(path: path, subject: Symbol("me"))
    options.types = TypeFilter(allow: Set(types), deny: Set(exclude))
    options.sources = Set(sources)
    options.fromDay = from
    options.toDay = to
    options.zone = zone.flatMap { TimeZone(identifier: $0) }
    let source = AppleHealthSource(options: options)
    let context = StageContext.forTesting("apple-health", name: "apple", policy: .skip)
    var run = SourceRun()
    try source.run(context: context) { batch in
        run.measurements += batch.measurements
        run.events += batch.events
        run.profiles += batch.profiles
    }
    run.rejects = context.sampleErrors
    run.input = context.inputs.first
    run.warnings = context.warnings
    run.progress = context.progress.fraction
    return run
}

/// Zips files (path in the archive → bytes), deflated.
func makeZip(_ entries: [(String, Data)], name: String = "export.zip") throws -> String {
    let url = tempDir().appendingPathComponent(name)
    let archive = try Archive(url: url, accessMode: .create)
    for (path, data) in entries {
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
    return url.path
}
