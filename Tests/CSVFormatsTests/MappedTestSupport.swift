import Foundation
import HealthPipeCore
import HealthPipeTestSupport
@testable import CSVFormats

/// Paths and adapters for the mapped-CSV tests; `run` builds a component and runs it with `SourceRunner`.
enum MappedSupport {
    static let packageRoot = Repository.root
    static let adaptersDirectory = packageRoot.appendingPathComponent("plugins/adapters").path
    /// Reference data copied into the repository (Tests/Fixtures, see its PROVENANCE.md) and the bundled samples.
    static let fixturesRoot = packageRoot.appendingPathComponent("Tests/Fixtures")
    static let samplesRoot = packageRoot.appendingPathComponent("samples")
    /// Fixtures written once per test process to a private folder.
    static let fixtures: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-fixtures-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in MappedFixtureFiles.files {
            try! Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        return dir
    }()

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
    /// `reference/…` from Tests/Fixtures, `samples/…` from the repository's samples folder.
    static func repositoryFile(_ relative: String) throws -> String {
        let url = relative.hasPrefix("samples/") ? packageRoot.appendingPathComponent(relative)
            : fixturesRoot.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MappedTestFailure("missing test fixture \(url.path) (see Tests/Fixtures/PROVENANCE.md)")
        }
        return url.path
    }

    /// The bundled adapter with this name.
    static func bundled(_ name: String) throws -> ComponentDescriptor {
        let all = try MappedCSVAdapters.load(directory: adaptersDirectory)
        guard let c = all.first(where: { $0.name == name }) else { throw MappedTestFailure("no bundled adapter \(name)") }
        return c
    }

    /// An adapter from YAML text (as if read from `file`).
    static func adapter(_ yaml: String, file: String = "test-adapter.yaml") throws -> ComponentDescriptor {
        try MappedCSVAdapters.component(document: ConfigDocument(file: file, text: yaml, environment: [:]))
    }

    /// Runs the source on `path` with extra stage options (YAML lines) and run settings.
    static func run(_ c: ComponentDescriptor, path: String, options: String = "", timezone: String? = nil,
                    policy: ErrorPolicy = .quarantine) throws -> SourceOutput {
        let source = try SourceRunner.build(c, path: path, options: options,
                                            settings: RunSettings(timezone: timezone, subject: "me", baseDirectory: "/"))
        return try SourceRunner.run(source, type: c.name, policy: policy)
    }

    /// Seconds since the epoch of a UTC civil time.
    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Int64 {
        CivilDate.days(year: y, month: mo, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)
    }

    /// Writes text to a fresh temporary folder and returns the file's path.
    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

struct MappedTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
