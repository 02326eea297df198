import HealthPipeCore

/// A YAML adapter (docs/adapters.md) drafted from an unknown CSV: columns placed by their header
/// words (every language in `DraftVocabulary`) and checked against their values (timestamps
/// that parse, glucose in a plausible range, amounts that are numbers). The user reads it, fixes
/// what the comments flag, and imports with `--plugin-path`.
public struct AdapterDraft: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    enum Role: Equatable {
        case glucose(unit: String)
        case carbs
        case insulin(subtype: String)
        case note
    }

    public let name: String
    /// The adapter's YAML text.
    public let yaml: String
    /// What the draft placed, one line each, for the command to print.
    public let summary: [String]

    /// Drafts an adapter for `sniff` named `name` ([a-z0-9][a-z0-9._-]*).
    public init(sniff: FileSniff, name: String) throws {
        guard let table = DraftTable(sniff) else {
            throw Failure(description: "\(sniff.path): no header line followed by rows of numbers in its first \(DraftTable.searchedLines) lines")
        }
        guard let time = DraftTimestamp.find(header: table.normalized, samples: table.rows) else {
            throw Failure(description: "\(sniff.path): no column of dates and times (header: \(table.header.joined(separator: ", ")))")
        }
        let timeColumns: Set<Int>
        switch time.layout {
        case .single(let c, _): timeColumns = [c]
        case .split(let d, _, let t, _): timeColumns = [d, t]
        }
        var roles: [(Int, Role)] = []
        for c in table.header.indices where !timeColumns.contains(c) {
            if let role = Self.role(of: c, in: table) { roles.append((c, role)) }
        }
        guard roles.contains(where: { if case .note = $0.1 { false } else { true } }) else {
            throw Failure(description: "\(sniff.path): no glucose, carbohydrate or insulin column among \(table.header.joined(separator: ", "))")
        }
        self.name = name
        (yaml, summary) = Self.render(name: name, path: sniff.path, table: table, time: time, roles: roles)
    }

    /// What a column holds, from its header words and its values; nil for columns the draft leaves out.
    static func role(of c: Int, in t: DraftTable) -> Role? {
        let h = t.normalized[c]
        if DraftVocabulary.has(h, DraftVocabulary.note), !t.values(c).isEmpty { return .note }
        guard let numbers = t.numbers(c) else { return nil }
        if DraftVocabulary.has(h, DraftVocabulary.glucose) {
            let unit: String
            if DraftVocabulary.has(h, DraftVocabulary.mmol) { unit = "mmol/L" }
            else if DraftVocabulary.has(h, DraftVocabulary.mgdl) { unit = "mg/dL" }
            else { unit = numbers.sorted()[numbers.count / 2] <= 35 ? "mmol/L" : "mg/dL" }
            let plausible = unit == "mmol/L" ? 0.5...60.0 : 10.0...1000.0
            return numbers.allSatisfy { plausible.contains($0) } ? .glucose(unit: unit) : nil
        }
        if DraftVocabulary.has(h, DraftVocabulary.carbs) { return numbers.allSatisfy { $0 >= 0 } ? .carbs : nil }
        if DraftVocabulary.has(h, DraftVocabulary.insulin) {
            let basal = DraftVocabulary.has(h, DraftVocabulary.basal) && !h.contains("bolus")
            return numbers.allSatisfy { $0 >= 0 } ? .insulin(subtype: basal ? "basal" : "bolus") : nil
        }
        return nil
    }
}
