import Foundation
import HealthPipeCore
import Yams

/// `healthpipe reaggregate --config settings.yml`: one optional section per step, each holding that
/// component's own options (decoded strictly by the component, so every mistake is reported as
/// settings.yml:line:column), or `false` to skip the step.
struct ReaggregateSettings {
    static let steps: [(key: String, type: String)] = [("resample", "resample"), ("classify", "classify"), ("daily", "daily"),
                                                        ("predict", "predict"), ("alerts", "alerts")]
    /// Steps that run only when the settings name them (resample adds a stored grid of derived rows).
    static let optIn: Set<String> = ["resample"]
    let document: ConfigDocument?
    /// Step → its options node (an empty mapping for defaults); absent when the step is skipped.
    var sections: [String: Node] = [:]

    static func load(path: String?) throws -> ReaggregateSettings {
        var s = ReaggregateSettings(document: try path.map { try ConfigDocument.load(path: $0) })
        for step in steps where !optIn.contains(step.key) { s.sections[step.key] = Node.mapping(Node.Mapping([])) }
        guard let doc = s.document else { return s }
        guard case .mapping(let top) = doc.root else {
            throw doc.error(at: doc.root, "a settings file is a mapping with resample, classify, daily, predict and alerts")
        }
        for (keyNode, value) in top {
            let key = keyNode.string ?? ""
            guard steps.contains(where: { $0.key == key }) else {
                let near = NameSuggester.nearest(to: key, in: steps.map(\.key))
                throw doc.error(at: keyNode, "unknown setting '\(key)'" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                                + "; expected resample, classify, daily, predict or alerts", suggestion: near)
            }
            switch value {
            case .mapping: s.sections[key] = value
            case .scalar(let sc) where sc.string == "false": s.sections[key] = nil
            case .scalar(let sc) where sc.string == "true" || sc.string.isEmpty || sc.string == "~" || sc.string == "null":
                s.sections[key] = Node.mapping(Node.Mapping([]))
            default: throw doc.error(at: value, "'\(key)' must be a mapping of its options, or false to skip it")
            }
        }
        return s
    }

    /// Builds each step once from the settings file so option errors point into it.
    func validate(registry: ComponentRegistry, run: RunSettings) throws {
        guard let document else { return }
        for step in Self.steps {
            guard let node = sections[step.key], let c = registry.component(named: step.type) else { continue }
            _ = try c.build(ComponentBuilder(stageName: step.key, document: document, node: node, settings: run))
        }
    }

    func pipelineYAML(db: String) throws -> String {
        func scalar(_ s: String) -> Node { Node(s) }
        func stage(_ type: String, inputs: [String], options: Node?) -> Node {
            var pairs: [(Node, Node)] = [(scalar("type"), scalar(type)),
                                         (scalar("inputs"), Node.sequence(Node.Sequence(inputs.map { scalar($0) })))]
            if case .mapping(let m)? = options { pairs += m.map { ($0.key, $0.value) } }
            return Node.mapping(Node.Mapping(pairs))
        }
        var transforms: [(Node, Node)] = []
        var outputs: [String] = []
        var measurementStream = "db"
        if let o = sections["resample"] {
            transforms.append((scalar("grid"), stage("resample", inputs: ["db"], options: o)))
            outputs.append("grid")
        }
        if let o = sections["classify"] {
            transforms.append((scalar("bands"), stage("classify", inputs: ["db"], options: o)))
            measurementStream = "bands"
            // The sink stores the readings' new bands (other columns are left as imported).
            outputs.append("bands")
        }
        if let o = sections["daily"] {
            transforms.append((scalar("days"), stage("daily", inputs: [measurementStream], options: o)))
            outputs.append("days")
        }
        if let o = sections["predict"] {
            transforms.append((scalar("forecast"), stage("predict", inputs: ["db"], options: o)))
            outputs.append("forecast")
        }
        if let o = sections["alerts"] {
            transforms.append((scalar("alarms"), stage("alerts", inputs: ["db"], options: o)))
            outputs.append("alarms")
        }
        let source = Node.mapping(Node.Mapping([(scalar("type"), scalar("sqlite-source")), (scalar("path"), scalar(db))]))
        let sink = Node.mapping(Node.Mapping([
            (scalar("type"), scalar("sqlite")),
            (scalar("inputs"), Node.sequence(Node.Sequence(outputs.map { scalar($0) }))),
            (scalar("path"), scalar(db)),
            (scalar("replace_derived"), Node("true", Tag(.bool))),
        ]))
        var root: [(Node, Node)] = [(scalar("sources"), Node.mapping(Node.Mapping([(scalar("db"), source)])))]
        if !transforms.isEmpty { root.append((scalar("transforms"), Node.mapping(Node.Mapping(transforms)))) }
        root.append((scalar("sinks"), Node.mapping(Node.Mapping([(scalar("out"), sink)]))))
        return try Yams.serialize(node: Node.mapping(Node.Mapping(root)))
    }
}
