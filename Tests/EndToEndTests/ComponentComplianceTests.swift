import BuiltinPlugins
import Foundation
import HealthPipeCore
import Testing
import Yams

/// One generic check over every registered component (as Vector's `assert_source_compliance`): the
/// options a component documents are exactly the options it reads while it is built (and the only
/// keys it accepts), each documented option decodes, every option not marked required can be left out (its default applies), a required one
/// cannot, an unknown key is refused with the valid keys and a suggestion, and `healthpipe plugins`
/// prints every option. A component whose docs and decoder drift apart fails here by name.
@Suite struct ComponentComplianceTests {
    static let registry = try! BuiltinPlugins.registry(environment: [:])
    static let components = registry.all().map(\.name)
    static let folder = E2E.tempDir()

    @Test(arguments: components) func documentedOptionsAreTheDecodedOptions(name: String) throws {
        let c = try #require(Self.registry.component(named: name))
        let required = c.options.filter(\.required)
        let minimal = required.map { ($0.name, Self.sample(for: $0)) }

        // Defaults apply: everything but the required options may be left out.
        if let error = Self.build(c, minimal) { Issue.record("\(name): minimal options refused: \(error)") }

        // A required option cannot be left out, and the error names it.
        for option in required {
            let error = Self.build(c, minimal.filter { $0.0 != option.name })
            #expect(error?.contains(option.name) == true, "\(name): leaving out required '\(option.name)' gave \(error ?? "no error")")
        }

        // Every documented option is one the component reads. (Reading an undocumented name through
        // `value` is an error the minimal build above would report; this catches it through `options`.)
        for option in c.options where !option.required {
            let read = Self.optionsRead(c, minimal + [(option.name, Self.sample(for: option))])
            #expect(read.contains(option.name), "\(name): documented option '\(option.name)' is not read")
            let undocumented = read.subtracting(c.options.map(\.name)).sorted()
            #expect(undocumented.isEmpty, "\(name): reads undocumented options \(undocumented)")
        }

        // An unknown key is refused with a suggestion, and the message lists what the user may write:
        // the documented options and the engine's keys, no more and no fewer.
        let refused = try #require(Self.build(c, minimal + [("colour_scheme", "1")]), "\(name): an unknown key was accepted")
        #expect(refused.contains("unknown option 'colour_scheme'"), "\(name): \(refused)")
        // Required, not optional: a changed message must fail here, not skip the comparison.
        let listed = try #require(Self.validKeys(in: refused), "\(name): no list of valid keys in \(refused)")
        #expect(listed == Set(c.options.map(\.name)).union(PipelineSpec.engineKeys), "\(name): the message lists \(listed.sorted())")
    }

    @Test func pluginsPrintsEveryOptionOfEveryComponent() throws {
        let r = try E2E.run(["plugins"])
        #expect(r.code == 0)
        var section = ""
        var printed: [String: Set<String>] = [:]
        for line in r.stdout.split(separator: "\n") {
            if line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first { section = String(name) }
            else if line.hasPrefix("      "), !line.hasPrefix("       "), let colon = line.firstIndex(of: ":") {
                printed[section, default: []].insert(line[line.startIndex..<colon].trimmingCharacters(in: .whitespaces))
            }
        }
        for c in Self.registry.all() {
            let missing = Set(c.options.map(\.name)).subtracting(printed[c.name] ?? [])
            #expect(missing.isEmpty, "\(c.name): `plugins` does not print \(missing.sorted())")
            for option in c.options where option.required {
                #expect(r.stdout.contains("      \(option.name): \(option.type) (required)"), "\(c.name).\(option.name)")
            }
        }
    }

    /// Builds the component from `options`; nil when it builds, else the error text.
    static func build(_ c: ComponentDescriptor, _ options: [(String, String)]) -> String? { attempt(c, options).error }

    /// The options the component read while it was built from `options` (whether or not it built).
    static func optionsRead(_ c: ComponentDescriptor, _ options: [(String, String)]) -> Set<String> { attempt(c, options).read }

    static func attempt(_ c: ComponentDescriptor, _ options: [(String, String)]) -> (error: String?, read: Set<String>) {
        var yaml = "stage:\n  type: \(c.name)\n"
        for (key, value) in options { yaml += "  \(key): \(value)\n" }
        var builder: ComponentBuilder?
        do {
            let doc = try ConfigDocument(file: "compliance.yml", text: yaml, environment: [:])
            let node = try #require(doc.root.mapping?["stage"])
            builder = ComponentBuilder(stageName: "stage", document: doc, node: node,
                                       settings: RunSettings(timezone: "UTC", subject: "demo", baseDirectory: folder.path))
            _ = try c.build(builder!)
            return (nil, builder!.optionsRead.names)
        } catch {
            return ("\(error)", builder?.optionsRead.names ?? [])
        }
    }

    /// "unknown option 'x' (valid: a, b, c)" → [a, b, c].
    static func validKeys(in message: String) -> Set<String>? {
        guard let start = message.range(of: "(valid: "), let end = message[start.upperBound...].firstIndex(of: ")") else { return nil }
        return Set(message[start.upperBound..<end].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// A value of the documented type (its `type` text), as YAML.
    static func sample(for option: OptionDoc) -> String {
        if let example = option.example { return example }
        let t = option.type
        if t.hasPrefix("list of ") {
            let item = String(t.dropFirst(8))
            if item.contains("metric") { return "[glucose]" }
            if item.contains("subject") { return "[demo]" }
            if item.contains("integer") { return "[1]" }
            if item.hasPrefix("{") { return "[]" }
            return "[" + (item.split(separator: "|").first.map { $0.split(separator: " ").first.map(String.init) ?? "" } ?? "") + "]"
        }
        if t == "list" { return "[glucose]" }
        if t.contains("|") {
            return String(t.split(separator: "|")[0]).trimmingCharacters(in: .whitespaces)
        }
        switch t {
        case "path": return folder.appendingPathComponent("input.csv").path
        case "folder": return folder.appendingPathComponent("out").path
        case "IANA zone", "IANA zone or ±HH:MM": return "UTC"
        case "bool", "boolean": return "true"
        case "YYYY-MM-DD": return "2020-01-01"
        case "ISO-8601 instant": return "2020-01-01T00:00:00Z"
        case "metric name": return "glucose"
        case "text": return "demo"
        case "hex": return "'0a'"
        default:
            if t.hasPrefix("duration") { return "15m" }
            return "5"  // integers, numbers and quantities in a unit
        }
    }
}
