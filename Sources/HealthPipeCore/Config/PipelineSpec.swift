import Yams

/// The Vector-shaped pipeline file, read but not yet built: which stages exist, their types,
/// inputs and error policies, and the nodes holding their options.
public struct PipelineSpec {
    public struct StageSpec {
        public var name: String
        public var role: StageRole
        public var type: String
        public var inputs: [String]
        public var onError: ErrorPolicy
        public var node: Node
        public var nameNode: Node
        public var typeNode: Node?
        public var inputNodes: [Node]
        /// The document the options node comes from, when not the pipeline's own (a settings file
        /// whose sections became stages): errors then point into it.
        public var document: ConfigDocument? = nil

        /// The stage's option `key` when it is a plain value (nil when absent or a list/mapping).
        public func scalarOption(_ key: String) -> String? {
            node.mappingPairs?.first(where: { $0.key.scalarText == key })?.value.scalarText
        }
    }

    /// Keys every stage may carry that the engine, not the component, handles.
    public static let engineKeys: Set<String> = ["type", "inputs", "on_error"]
    /// Keys allowed at the top of a pipeline file besides the three sections.
    public static let settingKeys: Set<String> = ["timezone", "subject", "quarantine"]

    public var document: ConfigDocument
    public var stages: [StageSpec] = []
    public var timezone: String?
    public var subject: String?
    public var quarantine: String?

    /// A pipeline assembled in code (`PipelineDraft`), not read from a file.
    public init(document: ConfigDocument, stages: [StageSpec], timezone: String? = nil, subject: String? = nil,
                quarantine: String? = nil) {
        self.document = document
        self.stages = stages
        self.timezone = timezone
        self.subject = subject
        self.quarantine = quarantine
    }

    /// Reads the structure; collects every structural error rather than stopping at the first.
    public init(document: ConfigDocument) throws {
        self.document = document
        var errors: [ConfigError] = []
        guard let top = document.root.mappingPairs else {
            throw document.error(at: document.root, "a pipeline file is a mapping with sources, transforms and sinks")
        }
        let allowed = Set(StageRole.allCases.map(\.section)).union(PipelineSpec.settingKeys)
        for (keyNode, value) in top {
            guard let key = keyNode.scalarText else { continue }
            if let role = StageRole.allCases.first(where: { $0.section == key }) {
                guard let entries = value.mappingPairs else {
                    errors.append(document.error(at: value, "'\(key)' must be a mapping of stage names to stages"))
                    continue
                }
                for (nameNode, body) in entries {
                    do { stages.append(try PipelineSpec.stage(nameNode, body, role, document)) } catch let e as ConfigError { errors.append(e) }
                }
            } else if PipelineSpec.settingKeys.contains(key) {
                do {
                    let text = try document.interpolate(value.scalarText ?? "", at: value)
                    guard value.scalarText != nil else { throw document.error(at: value, "'\(key)' takes a single value") }
                    switch key {
                    case "timezone": timezone = text
                    case "subject": subject = text
                    default: quarantine = text
                    }
                } catch let e as ConfigError { errors.append(e) }
            } else {
                errors.append(document.error(at: keyNode, "unknown top-level key '\(key)'",
                                             suggestion: NameSuggester.nearest(to: key, in: allowed)))
            }
        }
        var seen: [String: Node] = [:]
        for s in stages {
            if seen[s.name] != nil {
                errors.append(document.error(at: s.nameNode, "stage name '\(s.name)' is used twice; stage names are unique across sections"))
            }
            seen[s.name] = s.nameNode
        }
        try ConfigErrors.throwIfAny(errors)
    }

    private static func stage(_ nameNode: Node, _ body: Node, _ role: StageRole, _ doc: ConfigDocument) throws -> StageSpec {
        guard let name = nameNode.scalarText else { throw doc.error(at: nameNode, "a stage name must be text") }
        guard let pairs = body.mappingPairs else {
            throw doc.error(at: body, "stage '\(name)' must be a mapping with at least 'type'")
        }
        func value(_ k: String) -> (key: Node, value: Node)? { pairs.first { $0.key.scalarText == k } }
        guard let typePair = value("type"), let type = typePair.value.scalarText else {
            throw doc.error(at: nameNode, "stage '\(name)' has no 'type'")
        }
        var inputs: [String] = [], inputNodes: [Node] = []
        if let (_, v) = value("inputs") {
            switch v {
            case .sequence(let seq):
                for item in seq {
                    guard let t = item.scalarText else { throw doc.error(at: item, "an input is a stage name") }
                    inputs.append(try doc.interpolate(t, at: item))
                    inputNodes.append(item)
                }
            case .scalar(let s):
                inputs = [s.string]
                inputNodes = [v]
            case .mapping:
                throw doc.error(at: v, "'inputs' is a list of stage names")
            }
        }
        var policy = ErrorPolicy.quarantine
        if let (_, v) = value("on_error") {
            guard let t = v.scalarText, let p = ErrorPolicy(rawValue: t) else {
                throw doc.error(at: v, "on_error is fail, skip or quarantine",
                                suggestion: NameSuggester.nearest(to: v.scalarText ?? "", in: ErrorPolicy.allCases.map(\.rawValue)))
            }
            policy = p
        }
        return StageSpec(name: name, role: role, type: try doc.interpolate(type, at: typePair.value), inputs: inputs,
                         onError: policy, node: body, nameNode: nameNode, typeNode: typePair.value, inputNodes: inputNodes)
    }
}
