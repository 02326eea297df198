/// The one table of every component the engine can build, filled from `BuiltinPlugins` and from
/// YAML adapters found on the plugin path.
public struct ComponentRegistry: Sendable {
    public private(set) var components: [String: ComponentDescriptor] = [:]

    public init() {}

    /// Adds a component; a second component with the same name is an error (names are unique).
    public mutating func register(_ c: ComponentDescriptor) throws {
        if let existing = components[c.name] {
            throw RegistryError(message: "component '\(c.name)' is registered twice (by \(existing.family) and \(c.family))")
        }
        components[c.name] = c
    }

    public func component(named name: String) -> ComponentDescriptor? { components[name] }

    public func all(role: StageRole? = nil) -> [ComponentDescriptor] {
        components.values.filter { role == nil || $0.role == role }.sorted { ($0.role.rawValue, $0.name) < ($1.role.rawValue, $1.name) }
    }

    public var families: Set<String> { Set(components.values.map(\.family)) }

    /// The format of a file judged by its content: the best-scoring source detector, if any scores.
    public func detectFormat(of sniff: FileSniff) -> ComponentDescriptor? { bestDetection(of: sniff)?.component }

    /// The best-scoring source detector with its score, if any scores (ties: the first by name).
    public func bestDetection(of sniff: FileSniff) -> (component: ComponentDescriptor, score: Int)? {
        var best: (component: ComponentDescriptor, score: Int)? = nil
        for c in all(role: .source) {
            guard let detect = c.detect else { continue }
            let score = detect(sniff)
            if score > 0, best == nil || score > best!.score { best = (c, score) }
        }
        return best
    }

    /// The format of a file judged by its content; when no detector claims it, an `InputError`
    /// that says what the file is instead when that can be told (empty, UTF-16 without a BOM, UTF-32,
    /// binary, a truncated or corrupt zip) and "unknown format" only when it cannot.
    public func identify(_ sniff: FileSniff) throws -> ComponentDescriptor {
        if let c = detectFormat(of: sniff) { return c }
        for c in all(role: .source) { if let d = c.diagnose?(sniff) { throw InputError(file: sniff.path, reason: d) } }
        if sniff.prefix.isEmpty { throw InputError(file: sniff.path, reason: "the file is empty") }
        if let problem = sniff.encodingProblem { throw InputError(file: sniff.path, reason: problem) }
        if sniff.looksBinary {
            throw InputError(file: sniff.path, reason: FileSniff.binaryData)
        }
        let first = sniff.lines(1).first ?? ""
        let start = "it starts with '\(EchoText.cap(first, to: 80))'"
        if let near = NearestFormat.find(sniff, among: all(role: .source)) {
            throw InputError(file: sniff.path, reason: "unknown format: \(near.description); \(start) "
                             + "(`healthpipe adapters draft FILE` writes an adapter for a new layout)")
        }
        let known = all(role: .source).filter { $0.detect != nil }.map(\.name).joined(separator: ", ")
        throw InputError(file: sniff.path, reason: "unknown format: not any of \(known); \(start) "
                         + "(`healthpipe adapters draft FILE` writes an adapter for a new layout)")
    }
}

public struct RegistryError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
