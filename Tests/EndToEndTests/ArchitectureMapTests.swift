import Foundation
import HealthPipeTestSupport
import Testing

/// docs/architecture.md is the map of the house: it must name every module, every file its "Where to add"
/// table points at must exist, every test it says will fail must exist, and every command must be
/// documented somewhere a person reads (README.md or docs/).
@Suite struct ArchitectureMapTests {
    static let map = (try? String(contentsOf: Repository.url("docs/architecture.md"), encoding: .utf8)) ?? ""

    /// The text between a heading and the next heading of the same level.
    static func section(_ heading: String) -> String {
        guard let start = map.range(of: "\n" + heading + "\n") else { return "" }
        let rest = map[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Every `code span` of a text.
    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    static func folders(_ relative: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path(relative))) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: Repository.path(relative + "/" + name), isDirectory: &isDirectory)
                && isDirectory.boolValue && !name.hasPrefix(".")
        }.sorted()
    }

    @Test func everyModuleIsInTheModuleTable() {
        let modules = Self.section("## Modules")
        #expect(!modules.isEmpty)
        for folder in Self.folders("Sources") {
            let named = modules.contains("`Sources/\(folder)`") || (folder.hasPrefix("C") && modules.contains("`\(folder)`"))
            #expect(named, "Sources/\(folder) is not in docs/architecture.md's module table")
        }
        for folder in Self.folders("plugins") {
            #expect(modules.contains("`plugins/\(folder)`") || modules.contains("`\(folder)`"),
                    "plugins/\(folder) is not in docs/architecture.md's module table")
        }
    }

    @Test func everyFileTheWhereToAddTableNamesExists() {
        let table = Self.section("## Where to add")
        let paths = Self.codeSpans(table).filter { span in
            ["Sources/", "plugins/", "Tests/", "Fuzz/"].contains { span.hasPrefix($0) } && !span.contains("<")
        }
        #expect(paths.count >= 15, "the table names \(paths.count) files")
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: Repository.path(path)), "docs/architecture.md names \(path), which does not exist")
        }
    }

    @Test func everyTestTheWhereToAddTableNamesExists() throws {
        let table = Self.section("## Where to add")
        let tests = Set(Self.codeSpans(table).filter { $0.hasSuffix("Tests") && !$0.contains("/") })
        #expect(tests.count >= 8)
        var declared = Set<String>()
        let files = FileManager.default.enumerator(atPath: Repository.path("Tests"))
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".swift"), let text = try? String(contentsOfFile: Repository.path("Tests/" + file), encoding: .utf8) else { continue }
            for name in tests where text.contains("struct \(name)") || text.contains("class \(name)") { declared.insert(name) }
        }
        #expect(tests.subtracting(declared).sorted() == [], "named in docs/architecture.md but declared by no test")
    }

    @Test func everyCommandIsDocumented() throws {
        let help = try E2E.run(["--help"])
        #expect(help.code == 0)
        let listing = try #require(help.stdout.components(separatedBy: "SUBCOMMANDS:").last)
        let commands = listing.split(separator: "\n").compactMap { line -> String? in
            // "  import        Import export files …": a lower-case name two spaces in; not the closing "See 'healthpipe help …'".
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first,
                  word.allSatisfy({ $0.isLowercase || $0 == "-" }) else { return nil }
            return String(word)
        }
        #expect(commands.count >= 20)
        var documents = [try String(contentsOf: Repository.url("README.md"), encoding: .utf8)]
        for name in try FileManager.default.contentsOfDirectory(atPath: Repository.path("docs")) where name.hasSuffix(".md") {
            documents.append(try String(contentsOf: Repository.url("docs/" + name), encoding: .utf8))
        }
        for command in commands {
            #expect(documents.contains { $0.contains("healthpipe \(command) ") || $0.contains("healthpipe \(command)`") || $0.contains("healthpipe \(command)\n") },
                    "healthpipe \(command) is documented nowhere (README.md, docs/)")
        }
    }
}
