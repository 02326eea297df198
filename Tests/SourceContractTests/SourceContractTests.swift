import BuiltinPlugins
import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing

/// Every file source `healthpipe import` can detect reads its fixtures the same way by path, from
/// standard input, through a named pipe and one byte per read (`SourceVerifier`), or — when its
/// detector says it needs a regular file — refuses a pipe with a clear error. The list comes from the
/// registry (as `FuzzReplayTests.everyDetectableSourceHasATarget`), so a new format is checked by
/// registering it, and this suite fails until `SourceFixtures.table` names a fixture for it.
@Suite struct SourceContractTests {
    static let root = Repository.root
    static let registry = try! BuiltinPlugins.registry(pluginPaths: [])
    static let detectable = registry.all(role: .source).filter { $0.detect != nil }.map(\.name)

    @Test(arguments: detectable)
    func readsItsFixturesTheSameEveryWay(source name: String) throws {
        let component = try #require(Self.registry.component(named: name))
        let fixtures = SourceFixtures.table[name] ?? []
        #expect(!fixtures.isEmpty, "\(name) has no fixture in Tests/SourceContractTests/SourceFixtures.swift")
        let verifier = SourceVerifier(component: component, registry: Self.registry)
        for relative in fixtures {
            let report = try verifier.verify(fixture: Self.root.appendingPathComponent(relative).path)
            #expect(report.problems.isEmpty, "\(name) on \(relative):\n\(report.problems.joined(separator: "\n"))")
            #expect(report.records + report.quarantined > 0, "\(name) read nothing from \(relative)")
        }
    }

    @Test func everyFixtureExistsAndNamesADetectableSource() {
        for (name, fixtures) in SourceFixtures.table {
            #expect(Self.detectable.contains(name), "the fixture table names \(name), which is no detectable source")
            for relative in fixtures {
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(relative).path), "missing \(relative)")
            }
        }
    }
}
