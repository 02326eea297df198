import Yams

/// A pipeline assembled in code by a command (`import`, `reaggregate`, `metrics`), never written as
/// YAML text and parsed back: paths and names from the command line are values, not YAML, so
/// nothing in them is interpolated or re-parsed, and errors name the flag a value came from.
public struct PipelineDraft {
    public struct Stage {
        public var name: String
        public var role: StageRole
        public var type: String
        public var inputs: [String]
        public var onError: ErrorPolicy
        public var options: [(key: String, value: Node)]
        /// Where `options` were read from, when they come from a settings file rather than flags.
        public var document: ConfigDocument?
    }

    /// The command, as errors name it ("healthpipe import").
    public let command: String
    public private(set) var stages: [Stage] = []
    /// "stage.option" (or "stage") → the flag a value came from, e.g. "--preset consensus".
    public var flags: [String: String] = [:]
    public var timezone: String?
    public var subject: String?
    public var quarantine: String?

    public init(command: String) { self.command = command }

    public mutating func add(_ role: StageRole, _ name: String, type: String, inputs: [String] = [],
                             onError: ErrorPolicy = .quarantine, options: [(key: String, value: Node)] = [],
                             from document: ConfigDocument? = nil) {
        stages.append(Stage(name: name, role: role, type: type, inputs: inputs, onError: onError, options: options,
                            document: document))
    }

    /// The spec the engine builds, with a command-line document for errors.
    public func spec() -> PipelineSpec {
        let doc = ConfigDocument(command: command, root: yamlNode, flags: flags)
        let specs = stages.map { s in
            PipelineSpec.StageSpec(name: s.name, role: s.role, type: s.type, inputs: s.inputs, onError: s.onError,
                                   node: Self.mapping(s.options), nameNode: Node(s.name), typeNode: Node(s.type),
                                   inputNodes: s.inputs.map { Node($0) }, document: s.document)
        }
        return PipelineSpec(document: doc, stages: specs, timezone: timezone, subject: subject, quarantine: quarantine)
    }

    /// The pipeline as the YAML `healthpipe run` takes (for `--print-pipeline`: shown, never parsed back).
    public func yaml() throws -> String { try Yams.serialize(node: yamlNode) }

    private var yamlNode: Node {
        var top: [(Node, Node)] = []
        if let timezone { top.append((Node("timezone"), Node(timezone))) }
        if let subject { top.append((Node("subject"), Node(subject))) }
        if let quarantine { top.append((Node("quarantine"), Node(quarantine))) }
        for role in StageRole.allCases {
            let list = stages.filter { $0.role == role }
            guard !list.isEmpty else { continue }
            top.append((Node(role.section), Self.mapping(list.map { s in
                var pairs: [(key: String, value: Node)] = [("type", Node(s.type))]
                if !s.inputs.isEmpty { pairs.append(("inputs", Self.list(s.inputs.map { Node($0) }))) }
                if s.onError != .quarantine { pairs.append(("on_error", Node(s.onError.rawValue))) }
                return (key: s.name, value: Self.mapping(pairs + s.options))
            })))
        }
        return Self.mapping(top.map { (key: $0.0.scalarText ?? "", value: $0.1) })
    }

    public static func mapping(_ pairs: [(key: String, value: Node)]) -> Node {
        Node.mapping(Node.Mapping(pairs.map { (Node($0.key), $0.value) }))
    }

    public static func list(_ items: [Node]) -> Node { Node.sequence(Node.Sequence(items)) }

    /// A scalar that decodes as the given type (a plain string is a string; these keep their tag).
    public static func bool(_ b: Bool) -> Node { Node(b ? "true" : "false", Tag(.bool)) }
    public static func int(_ i: Int) -> Node { Node(String(i), Tag(.int)) }
}
