import Yams

/// Reading a component's options one by one: each is declared once, in the descriptor's `options`
/// (what `healthpipe plugins` prints), and read here by that name with its type — no second list of
/// fields to keep in step with the documentation.
extension ComponentBuilder {
    /// The option `name`, decoded strictly (null is unset; a wrong type points at the value); nil when unset.
    public func value<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T? {
        try read(name, type, required: false)
    }

    /// The option `name`, which must be set ("missing required option").
    public func required<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try read(name, type, required: true)!
    }

    private func read<T: Decodable>(_ name: String, _ type: T.Type, required: Bool) throws -> T? {
        if let declaredOptions, !declaredOptions.contains(name) {
            throw error("'\(name)' is read but not among the component's documented options (a bug in the component)")
        }
        optionsRead.names.insert(name)
        return try decoder.decodeOption(T.self, key: name, in: node, required: required)
    }

    /// Every key of the stage's mapping must be a documented option or an engine key; all unknown
    /// keys are named at once, each with the valid ones and the nearest.
    public func refuseUndeclaredOptions() throws {
        guard let declaredOptions, case .mapping = node else { return }
        try decoder.refuseUnknownKeys(in: node, valid: declaredOptions)
    }

    private var decoder: StrictNodeDecoder { StrictNodeDecoder(document: document, reservedKeys: PipelineSpec.engineKeys) }
}

/// The option names a component read while it was built. Unchecked: written only by the one thread
/// that builds the component, read after the build returns.
public final class OptionReadLog: @unchecked Sendable {
    public internal(set) var names: Set<String> = []
}
