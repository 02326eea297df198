import Yams

/// The settings a database's derived rows are computed with: which steps run (resample, classify,
/// daily, predict, alerts) and each step's options, exactly as the components take them. A database
/// stores its settings (`derivation_settings`); imports bring touched days up to date with them and
/// `healthpipe reaggregate --config settings.yml` replaces them. In a settings file every step is a
/// section holding its options, or `false`; classify, daily, predict and alerts run unless `false`,
/// resample only when named.
public struct DerivationSettings {
    /// The steps in the order a pipeline runs them: section key = component type.
    public static let stepOrder = ["resample", "classify", "daily", "reports", "predict", "alerts"]
    static let onUnlessFalse: Set<String> = ["classify", "daily", "reports", "predict", "alerts"]

    public struct Step {
        public var name: String
        /// The options mapping (engine keys excluded).
        public var options: Node
        /// The settings file the options were read from, for errors that point into it.
        public var document: ConfigDocument?

        public init(name: String, options: Node, document: ConfigDocument? = nil) {
            self.name = name
            self.options = options
            self.document = document
        }

        /// The options as (key, value) pairs, to build the step from.
        public var optionPairs: [(key: String, value: Node)] {
            (options.mappingPairs ?? []).map { ($0.key.scalarText ?? "", $0.value) }
        }
    }

    /// Enabled steps in `stepOrder`.
    public private(set) var steps: [Step]

    public init(steps: [Step]) {
        self.steps = Self.stepOrder.compactMap { name in steps.last { $0.name == name } }
    }

    /// What `healthpipe import` keeps up to date in a new database: bands and daily summaries with
    /// metric sets, with the classify preset given, and the health reports' daily summaries.
    public static func importDefaults(preset: String? = nil) -> DerivationSettings {
        let classify: [(key: String, value: Node)] = preset.map { [("preset", Node($0))] } ?? []
        return DerivationSettings(steps: [Step(name: "classify", options: PipelineDraft.mapping(classify)),
                                          Step(name: "daily", options: PipelineDraft.mapping([])),
                                          Step(name: "reports", options: PipelineDraft.mapping([]))])
    }

    /// Steps computed from the store only (a subject's whole report history), never from a passing
    /// import stream: a database adopting a pipeline's steps keeps them too, with their defaults.
    public static let storeOnlySteps: Set<String> = ["reports"]

    /// Whether an import sink may store derived rows computed from its stream (for fresh days:
    /// `DayFreshness`): the store keeps settings, and every step of them but the store-only ones is
    /// upstream of the sink with those settings (`trusted`, set by `StoreDerivation.prepare`).
    public static func streamDerives(storedSteps: Set<String>, trusted: Set<String>) -> Bool {
        !storedSteps.isEmpty && storedSteps.subtracting(storeOnlySteps).isSubset(of: trusted)
    }

    /// `steps` plus every store-only step they lack, with its defaults.
    public static func adopting(_ steps: [Step]) -> DerivationSettings {
        let missing = storeOnlySteps.subtracting(steps.map(\.name)).sorted().map { Step(name: $0, options: PipelineDraft.mapping([])) }
        return DerivationSettings(steps: steps + missing)
    }

    public subscript(step: String) -> Step? { steps.first { $0.name == step } }
    public var names: [String] { steps.map(\.name) }

    /// Reads a settings file (see the type's documentation).
    public init(document doc: ConfigDocument) throws {
        guard case .mapping(let top) = doc.root else {
            throw doc.error(at: doc.root, "a settings file is a mapping with resample, classify, daily, reports, predict and alerts")
        }
        var chosen: [String: Node] = [:]
        for name in Self.onUnlessFalse { chosen[name] = PipelineDraft.mapping([]) }
        for (keyNode, value) in top {
            let key = keyNode.scalarText ?? ""
            guard Self.stepOrder.contains(key) else {
                let near = NameSuggester.nearest(to: key, in: Self.stepOrder)
                throw doc.error(at: keyNode, "unknown setting '\(key)'" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                                + "; expected resample, classify, daily, reports, predict or alerts", suggestion: near)
            }
            switch value {
            case .mapping: chosen[key] = value
            case .scalar(let sc) where sc.string == "false": chosen[key] = nil
            case .scalar(let sc) where sc.string == "true" || sc.string.isEmpty || sc.string == "~" || sc.string == "null":
                chosen[key] = PipelineDraft.mapping([])
            default: throw doc.error(at: value, "'\(key)' must be a mapping of its options, or false to skip it")
            }
        }
        self.init(steps: chosen.map { Step(name: $0.key, options: $0.value, document: doc) })
    }

    /// Each step's options as one line of YAML (flow style), for storage.
    public func serialized() throws -> [(step: String, options: String)] {
        try steps.map { s in
            (s.name, try Yams.serialize(node: Self.flow(s.options)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Settings stored as `serialized()` wrote them: resolved when they were written, so nothing in
    /// them is read from this process's environment (reading it cost an upload a tenth of its work).
    public init(stored rows: [(step: String, options: String)], origin: String) throws {
        var steps: [Step] = []
        for (name, text) in rows where Self.stepOrder.contains(name) {
            let doc = try ConfigDocument(file: "\(origin) (\(name) settings)", text: text, environment: [:])
            steps.append(Step(name: name, options: doc.root, document: doc))
        }
        self.init(steps: steps)
    }

    /// Each step's effective settings with every default filled in (`DerivationStep.fingerprint`), so
    /// two ways of writing the same settings compare equal. Builds the steps: option errors throw.
    public func fingerprints(registry: ComponentRegistry, settings run: RunSettings) throws -> [String: String] {
        var out: [String: String] = [:]
        for s in steps {
            guard let c = registry.component(named: s.name) else { continue }
            let doc = s.document ?? ConfigDocument(command: "settings", root: s.options)
            let builder = ComponentBuilder(stageName: s.name, document: doc, node: s.options, settings: run)
            let stage = try c.build(builder)
            out[s.name] = try (stage as? DerivationStep)?.fingerprint ?? Yams.serialize(node: Self.flow(s.options))
        }
        return out
    }

    /// A copy of the node in flow style, without positions.
    static func flow(_ node: Node) -> Node {
        switch node {
        case .scalar(let s): return Node(s.string, s.tag)
        case .sequence(let seq): return Node.sequence(Node.Sequence(seq.map(flow), .implicit, .flow))
        case .mapping(let m): return Node.mapping(Node.Mapping(m.map { (flow($0.key), flow($0.value)) }, .implicit, .flow))
        }
    }
}
