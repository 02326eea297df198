import Foundation
import HealthPipeCore
import Testing
import HealthPipeTestSupport

/// docs/schema.md lists every table and column of the description (`StoreTables`) in a generated
/// block, so the document cannot fall behind the schema. `HEALTHPIPE_WRITE_DOCS=1` rewrites the block.
@Suite struct SchemaDocTests {
    static let begin = "<!-- tables: generated from StoreTables (Tests/SQLiteStoreTests/SchemaDocTests.swift) -->"
    static let end = "<!-- end of generated tables -->"

    static func block() -> String {
        var lines = [begin, "", "| table | key | other columns | stores | indexes |", "|---|---|---|---|---|"]
        for t in StoreTables.all {
            let key = t.naturalKey.map { "`\($0)`" }.joined(separator: ", ")
            let others = t.columns.filter { !t.naturalKey.contains($0.name) }.map { c in
                "`\(c.name)`" + (c.nullable ? "?" : "") + (c.generatedFrom != nil ? " (generated)" : "")
            }.joined(separator: ", ")
            let stores = StoreDialect.allCases.filter { t.dialects.contains($0) }.map { $0 == .sqlite ? "SQLite" : "PostgreSQL" }
            let indexes = t.indexes.map { "`\($0.name)`" + ($0.unique ? " (unique)" : "") }.joined(separator: ", ")
            lines.append("| `\(t.name)` | \(key) | \(others) | \(stores.joined(separator: ", ")) | \(indexes) |")
        }
        lines += ["", "Views: " + StoreTables.views.map { v in
            "`\(v.name)`" + (v.dialects.count == 1 ? " (\(v.dialects.contains(.sqlite) ? "SQLite" : "PostgreSQL") only)" : "")
        }.joined(separator: ", ") + ".", "", end]
        return lines.joined(separator: "\n")
    }

    static var docURL: URL {
        Repository.url("docs/schema.md")
    }

    @Test func schemaDocListsEveryTableAndColumn() throws {
        var text = try String(contentsOf: Self.docURL, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin)), stop = try #require(text.range(of: Self.end))
        let current = String(text[start.lowerBound..<stop.upperBound])
        if current != Self.block(), ProcessInfo.processInfo.environment["HEALTHPIPE_WRITE_DOCS"] == "1" {
            text.replaceSubrange(start.lowerBound..<stop.upperBound, with: Self.block())
            try text.write(to: Self.docURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == Self.block(), "docs/schema.md's table list differs from StoreTables: run with HEALTHPIPE_WRITE_DOCS=1")
        for t in StoreTables.all {
            for c in t.columns { #expect(current.contains("`\(c.name)`"), "\(t.name).\(c.name) is not in docs/schema.md") }
        }
    }
}
