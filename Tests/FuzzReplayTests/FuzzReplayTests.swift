import Foundation
import BuiltinPlugins
import FuzzTargets
import Testing
import HealthPipeTestSupport

/// Every fuzz target replays its seed corpus (Fuzz/corpus/<target>) and every input libFuzzer ever
/// found to crash or hang it (Tests/Fixtures/fuzz-regressions/<target>): each must run to the end.
/// A crash here takes the test process down, which fails the suite.
@Suite struct FuzzReplayTests {
    static let root = Repository.root

    static func inputs(_ folder: String, _ target: String) -> [URL] {
        let dir = root.appendingPathComponent(folder).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") && $0 != "README.md" }.map { dir.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func replaysCorpusAndRegressions(target name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let seeds = Self.inputs("Fuzz/corpus", name)
        #expect(!seeds.isEmpty, "Fuzz/corpus/\(name) has no seed inputs")
        // Seeds are valid files: each must really go through the parser, or the target tests nothing.
        for file in seeds {
            let produced = try Data(contentsOf: file).withUnsafeBytes { target.run($0) }
            #expect(produced > 0, "\(name): seed \(file.lastPathComponent) produced nothing")
        }
        for file in Self.inputs("Tests/Fixtures/fuzz-regressions", name) {
            _ = try Data(contentsOf: file).withUnsafeBytes { target.run($0) }
        }
    }

    /// Every format `healthpipe import` can detect is fuzzed: the registry decides, not a hand-kept list.
    @Test func everyDetectableSourceHasATarget() throws {
        let registry = try BuiltinPlugins.registry(pluginPaths: [])
        let fuzzed = Set(FuzzTarget.all.flatMap(\.components))
        let detectable = registry.all(role: .source).filter { $0.detect != nil }.map(\.name)
        #expect(detectable.count >= 14)
        #expect(Set(detectable).subtracting(fuzzed).isEmpty, "not fuzzed: \(Set(detectable).subtracting(fuzzed).sorted())")
    }

    @Test func everyTargetHasAUniqueName() {
        #expect(Set(FuzzTarget.all.map(\.name)).count == FuzzTarget.all.count)
    }
}
