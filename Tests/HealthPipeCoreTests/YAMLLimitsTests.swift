import Foundation
@testable import HealthPipeCore
import Testing
import HealthPipeTestSupport

/// Nesting and size limits are checked on the text, before the recursive YAML parser runs.
@Suite struct YAMLLimitsTests {
    func violation(_ text: String) -> ConfigError? { YAMLLimits.violation(in: text, file: "p.yml") }

    @Test func realConfigurationsPass() throws {
        let pipelines = Repository.url("samples/pipelines")
        for name in try FileManager.default.contentsOfDirectory(atPath: pipelines.path) {
            #expect(violation(try String(contentsOf: pipelines.appendingPathComponent(name), encoding: .utf8)) == nil, "\(name)")
        }
        #expect(violation("a: \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"\n# [[[[[[[[[[[[[[\n") == nil)
    }

    @Test func deepFlowBlockAndSequenceNestingAreRefused() {
        #expect(violation("a: " + String(repeating: "[", count: 65) + String(repeating: "]", count: 65))?.message.contains("64 levels") == true)
        #expect(violation("a: " + String(repeating: "{b: ", count: 70) + "1" + String(repeating: "}", count: 70)) != nil)
        #expect(violation(String(repeating: "- ", count: 70) + "x") != nil)
        var block = ""
        for i in 0..<70 { block += String(repeating: " ", count: i) + "k\(i):\n" }
        let e = violation(block)
        #expect(e?.line == 65, "\(String(describing: e))")
        #expect(violation("a: " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60)) == nil)
    }

    @Test func sizeAndAliasesAreBounded() throws {
        #expect(violation("# " + String(repeating: "x", count: YAMLLimits.maxBytes)) != nil)
        var aliases = "a: &a 1\nb: ["
        aliases += Array(repeating: "*a", count: 1001).joined(separator: ", ") + "]\n"
        #expect(violation(aliases)?.message.contains("aliases") == true)
    }

    @Test func aDeepDocumentNeverReachesTheParser() {
        // 5,000 levels crashed the process (stack overflow in the recursive composer) before the limit.
        let text = "sources:\n  a: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        let error = #expect(throws: ConfigError.self) { try ConfigDocument(file: "deep.yml", text: text) }
        #expect(error?.line == 2)
        #expect((error?.description.utf8.count ?? 0) < 1000)
    }
}
