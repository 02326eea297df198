import HealthPipeCore
import Yams

/// Finds the YAML nodes behind spec fields, so checks made after decoding still point at the
/// offending key or value (file:line:column) and collect into one report.
struct SpecNodes {
    let document: ConfigDocument
    private(set) var errors: [ConfigError] = []

    init(document: ConfigDocument) { self.document = document }

    /// The value node at a key path (`["timestamp", "format"]`); the nearest existing ancestor
    /// when the path stops early, so a missing key points at its parent mapping.
    func value(_ path: [String]) -> Node {
        var node = document.root
        for key in path {
            guard let pair = node.mapping?.first(where: { $0.key.string == key }) else { return node }
            node = pair.value
        }
        return node
    }

    /// The key node of the last path element (for unknown names), else the value lookup's result.
    func key(_ path: [String]) -> Node {
        let parent = value(Array(path.dropLast()))
        guard let last = path.last, let pair = parent.mapping?.first(where: { $0.key.string == last }) else { return parent }
        return pair.key
    }

    mutating func fail(_ path: [String], atKey: Bool = false, _ message: String, suggestion: String? = nil) {
        let node = atKey ? key(path) : value(path)
        errors.append(document.error(at: node, message, suggestion: suggestion))
    }

    /// Throws what was collected: one error as itself, several together.
    func check() throws {
        try ConfigErrors.throwIfAny(errors)
    }
}
