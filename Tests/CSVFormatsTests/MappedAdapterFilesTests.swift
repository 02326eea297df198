import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// Every shipped adapter file builds into a source component.
@Suite struct MappedAdapterFilesTests {
    @Test func everyBundledAdapterBuilds() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: MappedSupport.adaptersDirectory)
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        #expect(files.count >= 3)
        for file in files {
            let doc = try ConfigDocument.load(path: MappedSupport.adaptersDirectory + "/" + file)
            let c = try MappedCSVAdapters.component(document: doc)
            #expect(c.role == .source)
            #expect(c.family == "adapters/" + file)
            #expect(!c.summary.isEmpty)
            #expect(c.detect != nil)
            #expect(c.options.map(\.name) == ["path", "timezone", "subject", "ambiguous_time", "nonexistent_time"])
        }
        let loaded = try MappedCSVAdapters.load(directory: MappedSupport.adaptersDirectory)
        #expect(loaded.map(\.family) == files.map { "adapters/" + $0 })
        #expect(Set(loaded.map(\.name)).isSuperset(of: ["simglucose", "nightscout-entries-csv", "nightscout-exporter-cgm"]))
    }

    @Test func producedKindsFollowTheColumns() throws {
        #expect(try MappedSupport.bundled("simglucose").produces == [.measurements, .events])
        #expect(try MappedSupport.bundled("nightscout-entries-csv").produces == [.measurements])
    }

    @Test func builtInNamesAreReserved() throws {
        let doc = try ConfigDocument.load(path: MappedSupport.adaptersDirectory + "/simglucose.yaml")
        #expect(throws: ConfigError.self) {
            _ = try MappedCSVAdapters.component(document: doc, reservedNames: ["simglucose"])
        }
    }

    @Test func twoFilesWithOneNameAreRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try String(contentsOfFile: MappedSupport.adaptersDirectory + "/simglucose.yaml", encoding: .utf8)
        try text.write(to: dir.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        try text.write(to: dir.appendingPathComponent("b.yml"), atomically: true, encoding: .utf8)
        do {
            _ = try MappedCSVAdapters.load(directory: dir.path)
            Issue.record("expected a duplicate-name error")
        } catch let e as ConfigError {
            #expect(e.file.hasSuffix("b.yml"))
            #expect(e.line == 4)
            #expect(e.message.contains("already defined by a.yaml"))
        }
    }
}
