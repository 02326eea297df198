import Yams

extension ComponentBuilder {
    /// Reads `timezone` and `subject` now, as the source this stage hands them to will: a bad zone
    /// is a configuration error when the stage is built, not when its file is reached.
    public func checkHandedOnOptions() throws {
        _ = try zone(value("timezone"))
        _ = try value("subject", as: String.self)
    }

    /// The source `descriptor` builds for `path`, with this stage's other options (minus `dropping`):
    /// for sources that find their input's format at run time and hand it to that format's source
    /// (`stdin`/`auto`, the files inside an export zip).
    public func delegate(to descriptor: ComponentDescriptor, path: String, dropping: Set<String> = ["format", "path"]) throws -> any Source {
        var pairs = Array(node.mapping ?? [:]).filter { !dropping.contains($0.key.string ?? "") }
        pairs.append((Node("path"), Node(path)))
        var b = ComponentBuilder(stageName: stageName, document: document, node: .mapping(Node.Mapping(pairs)), settings: settings)
        b.registry = registry
        guard let source = try descriptor.build(b) as? any Source else { throw error("'\(descriptor.name)' does not read files") }
        return source
    }
}
