import Yams

/// A validated, built pipeline: stage instances in topological order with their wiring.
public struct PipelineGraph {
    public struct Node {
        public var name: String
        public var descriptor: ComponentDescriptor
        public var stage: any Stage
        public var policy: ErrorPolicy
        /// Indices (into `nodes`) of the stages feeding this one.
        public var inputs: [Int]
        /// What this stage emits, after pass-through is accounted for.
        public var emits: RecordKinds
        /// The component's options as written (engine keys left out).
        public var options: Yams.Node
    }

    public var nodes: [Node]
    public var settings: RunSettings
    public var quarantinePath: String
    /// Record kinds a sink receives but does not write ("'out' (ndjson) does not write routes that
    /// 'apple' emits"): not an error, since a pipeline may mean it, but never silent.
    public var unwritten: [String] = []

    /// Validates the spec against the registry and builds every stage. Collects all errors:
    /// unknown types and inputs (with the nearest valid name), cycles, records a stage cannot
    /// take, and each component's own option errors.
    public static func build(spec: PipelineSpec, registry: ComponentRegistry, settings base: RunSettings,
                             defaultQuarantine: String) throws -> PipelineGraph {
        let doc = spec.document
        var settings = base
        if let tz = spec.timezone { settings.timezone = tz }
        if let s = spec.subject { settings.subject = s }
        var errors: [ConfigError] = []
        let byName = Dictionary(spec.stages.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

        // Types.
        var descriptors: [String: ComponentDescriptor] = [:]
        for s in spec.stages {
            if let d = registry.component(named: s.type) {
                if d.role != s.role {
                    errors.append(doc.error(at: s.typeNode, "'\(s.type)' is a \(d.role.rawValue), not a \(s.role.rawValue); move it under '\(d.role.section)'"))
                } else {
                    descriptors[s.name] = d
                }
            } else {
                let names = registry.all(role: s.role).map(\.name)
                errors.append(doc.error(at: s.typeNode, "unknown \(s.role.rawValue) type '\(s.type)'",
                                        suggestion: NameSuggester.nearest(to: s.type, in: names)))
            }
        }

        // Inputs.
        for s in spec.stages {
            if s.role == .source, !s.inputs.isEmpty {
                errors.append(doc.error(at: s.inputNodes.first, "source '\(s.name)' cannot have inputs"))
            }
            if s.role != .source, s.inputs.isEmpty {
                errors.append(doc.error(at: s.nameNode, "\(s.role.rawValue) '\(s.name)' needs 'inputs'"))
            }
            for (i, input) in s.inputs.enumerated() {
                // The same input twice would hand the stage every record twice (a sink writes each twice).
                if s.inputs[..<i].contains(input) {
                    errors.append(doc.error(at: s.inputNodes[i], "'\(input)' is listed twice in the inputs of \(s.role.rawValue) '\(s.name)': "
                                            + "it would receive every record twice; list each input once"))
                    continue
                }
                if let target = byName[input] {
                    if target.role == .sink {
                        errors.append(doc.error(at: s.inputNodes[i], "'\(input)' is a sink; sinks produce nothing to read"))
                    }
                } else {
                    let candidates = spec.stages.filter { $0.role != .sink && $0.name != s.name }.map(\.name)
                    errors.append(doc.error(at: s.inputNodes[i], "unknown input '\(input)'",
                                            suggestion: NameSuggester.nearest(to: input, in: candidates)))
                }
            }
        }
        if spec.stages.allSatisfy({ $0.role != .sink }) {
            errors.append(doc.error(at: doc.root, "the pipeline has no sinks: nothing would be written"))
        }
        if !errors.isEmpty { throw ConfigErrors(errors) }

        // Order and cycles.
        let order = try topologicalOrder(spec, doc)

        // Record kinds along each edge.
        var emits: [String: RecordKinds] = [:]
        var unwritten: [String] = []
        for s in order {
            guard let d = descriptors[s.name] else { continue }
            var received: RecordKinds = []
            for (i, input) in s.inputs.enumerated() {
                let upstream = emits[input] ?? []
                received.formUnion(upstream)
                if s.role != .source, upstream.intersection(d.accepts).isEmpty {
                    errors.append(doc.error(at: s.inputNodes[i],
                        "'\(s.name)' (\(d.name)) takes \(d.accepts) but '\(input)' emits \(upstream)"))
                }
                // Live progress and raw motion samples are for display; every other kind a sink
                // leaves out is said.
                let left = upstream.subtracting(d.accepts).subtracting([.motionSamples, .sessionProgress])
                if s.role == .sink, !left.isEmpty, !upstream.intersection(d.accepts).isEmpty {
                    unwritten.append("'\(s.name)' (\(d.name)) does not write the \(left) that '\(input)' emits")
                }
            }
            emits[s.name] = d.passesThrough ? d.produces.union(received) : d.produces
        }
        if !errors.isEmpty { throw ConfigErrors(errors) }

        // Build components (each decodes its own options).
        var nodes: [Node] = []
        var index: [String: Int] = [:]
        // A stage fed by one time-ordered source (through stages that forward what they receive) may stream.
        var ordered: [String: Bool] = [:]
        for s in order {
            let d = descriptors[s.name]!
            // An input that failed to build has already reported its error; skip this stage's wiring.
            guard s.inputs.allSatisfy({ index[$0] != nil }) else { continue }
            let inputOrdered = s.inputs.count == 1 && ordered[s.inputs[0]] == true
            ordered[s.name] = s.role == .source ? d.emitsTimeOrdered : (d.passesThrough && inputOrdered)
            do {
                var builder = ComponentBuilder(stageName: s.name, document: s.document ?? doc, node: s.node, settings: settings)
                builder.inputTimeOrdered = inputOrdered
                builder.registry = registry
                let stage = try d.build(builder)
                index[s.name] = nodes.count
                nodes.append(Node(name: s.name, descriptor: d, stage: stage, policy: s.onError,
                                  inputs: s.inputs.map { index[$0]! }, emits: emits[s.name] ?? [],
                                  options: Self.withoutEngineKeys(s.node)))
            } catch let e as ConfigError {
                errors.append(e)
            } catch let e as ConfigErrors {
                errors.append(contentsOf: e.errors)
            } catch {
                errors.append(doc.error(at: s.nameNode, "\(s.name): \(error)"))
            }
        }
        if !errors.isEmpty { throw ConfigErrors(errors) }
        let q = spec.quarantine.map { ComponentBuilder.resolve($0, base: settings.baseDirectory) } ?? defaultQuarantine
        return PipelineGraph(nodes: nodes, settings: settings, quarantinePath: q, unwritten: unwritten)
    }

    static func withoutEngineKeys(_ node: Yams.Node) -> Yams.Node {
        guard case .mapping(let m) = node else { return node }
        return .mapping(Yams.Node.Mapping(m.filter { !PipelineSpec.engineKeys.contains($0.key.scalarText ?? "") }))
    }

    private static func topologicalOrder(_ spec: PipelineSpec, _ doc: ConfigDocument) throws -> [PipelineSpec.StageSpec] {
        let byName = Dictionary(spec.stages.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var order: [PipelineSpec.StageSpec] = []
        func visit(_ s: PipelineSpec.StageSpec, _ path: [String]) throws {
            if state[s.name] == 2 { return }
            if state[s.name] == 1 {
                let cycle = (path.drop(while: { $0 != s.name }) + [s.name]).joined(separator: " → ")
                throw doc.error(at: s.nameNode, "cycle in the pipeline: \(cycle)")
            }
            state[s.name] = 1
            for input in s.inputs { if let up = byName[input] { try visit(up, path + [s.name]) } }
            state[s.name] = 2
            order.append(s)
        }
        for s in spec.stages { try visit(s, []) }
        return order
    }
}
