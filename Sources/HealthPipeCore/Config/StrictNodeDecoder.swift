import Yams

/// Decodes a component's `Decodable` options from a YAML node, strictly: every key the type did not
/// ask for is an error naming file:line:column and the nearest valid key; a value of the wrong
/// type names where it is and what was expected. `${ENV}` is expanded in every scalar.
public struct StrictNodeDecoder {
    let document: ConfigDocument
    /// Keys handled by the engine (type, inputs, on_error) that the component must not see as unknown.
    let reservedKeys: Set<String>

    public init(document: ConfigDocument, reservedKeys: Set<String> = []) {
        self.document = document
        self.reservedKeys = reservedKeys
    }

    /// `asked` receives the keys of `node` the type asked for, even when decoding fails.
    public func decode<T: Decodable>(_ type: T.Type, from node: Node, asked: ((Set<String>) -> Void)? = nil) throws -> T {
        let state = DecodeState(document: document)
        let decoder = NodeDecoder(node: node, state: state, codingPath: [], reserved: reservedKeys)
        defer { if let asked, let root = state.visited.first { asked(root.asked.names) } }
        let value: T
        do {
            value = try T(from: decoder)
        } catch let e as ConfigError {
            throw e
        } catch let e as DecodingError {
            throw state.convert(e, root: node)
        }
        try state.checkUnknownKeys()
        return value
    }

    /// One option of the mapping `node`, decoded as `decode` decodes a field (null is absent, a
    /// wrong type points at the value, nested mappings are checked for unknown keys); nil when it
    /// is not set. The mapping's own keys are left to the caller, who knows the valid ones.
    public func decodeOption<T: Decodable>(_ type: T.Type, key: String, in node: Node, required: Bool) throws -> T? {
        let state = DecodeState(document: document)
        let decoder = NodeDecoder(node: node, state: state, codingPath: [], reserved: reservedKeys)
        let value: T?
        do {
            let options = try decoder.container(keyedBy: IndexKey.self)
            let k = IndexKey(stringValue: key)!
            value = required ? try options.decode(T.self, forKey: k) : try options.decodeIfPresent(T.self, forKey: k)
        } catch let e as ConfigError {
            throw e
        } catch let e as DecodingError {
            throw state.convert(e, root: node)
        }
        state.visited.removeFirst()  // the mapping itself, opened first
        try state.checkUnknownKeys()
        return value
    }

    /// "unknown option" errors for the keys of `mapping` that are neither `valid` nor reserved, each
    /// naming the valid keys and the nearest one.
    func unknownKeyErrors(in mapping: Node, valid: Set<String>) -> [ConfigError] {
        let all = valid.union(reservedKeys).sorted()
        return (mapping.mappingPairs ?? []).compactMap { k, _ in
            guard let name = k.scalarText, !valid.contains(name), !reservedKeys.contains(name) else { return nil }
            return document.error(at: k, "unknown option '\(name)' (valid: \(all.joined(separator: ", ")))",
                                  suggestion: NameSuggester.nearest(to: name, in: all))
        }
    }

    /// Refuses the keys of `mapping` that are neither `valid` nor reserved (all of them at once).
    public func refuseUnknownKeys(in mapping: Node, valid: Set<String>) throws {
        let errors = unknownKeyErrors(in: mapping, valid: valid)
        try ConfigErrors.throwIfAny(errors)
    }
}

/// Shared across one decode: which keys each mapping was asked for.
final class DecodeState {
    let document: ConfigDocument
    var visited: [(mapping: Node, asked: KeyLog, reserved: Set<String>)] = []
    init(document: ConfigDocument) { self.document = document }

    func checkUnknownKeys() throws {
        var errors: [ConfigError] = []
        // A mapping decoded by several types (shared option groups) accepts the union of their keys.
        var merged: [String: (mapping: Node, asked: KeyLog, reserved: Set<String>)] = [:]
        var order: [String] = []
        for (mapping, asked, reserved) in visited {
            // Built in code (no position): the same mapping is the same node value.
            let id = mapping.mark.map { "\($0.line):\($0.column)" }
                ?? order.first { merged[$0]?.mapping == mapping && merged[$0]?.mapping.mark == nil } ?? "built \(order.count)"
            if let existing = merged[id] {
                existing.asked.names.formUnion(asked.names)
                existing.asked.usesAllKeys = existing.asked.usesAllKeys || asked.usesAllKeys
            } else {
                merged[id] = (mapping, asked, reserved)
                order.append(id)
            }
        }
        for id in order {
            let (mapping, asked, reserved) = merged[id]!
            guard !asked.usesAllKeys else { continue }
            errors += StrictNodeDecoder(document: document, reservedKeys: reserved).unknownKeyErrors(in: mapping, valid: asked.names)
        }
        try ConfigErrors.throwIfAny(errors)
    }

    /// Maps a DecodingError to the node it concerns.
    func convert(_ e: DecodingError, root: Node) -> Error {
        func locate(_ path: [CodingKey]) -> Node {
            var node = root
            for key in path {
                if let i = key.intValue, case .sequence(let s) = node, i < s.count { node = s[i] }
                else if let pairs = node.mappingPairs, let hit = pairs.first(where: { $0.key.scalarText == key.stringValue }) {
                    node = hit.value
                } else { break }
            }
            return node
        }
        switch e {
        case .keyNotFound(let key, let ctx):
            return document.error(at: locate(ctx.codingPath), "missing required option '\(key.stringValue)'")
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx), .dataCorrupted(let ctx):
            return document.error(at: locate(ctx.codingPath), ctx.debugDescription)
        @unknown default:
            return document.error(at: root, "\(e)")
        }
    }
}

final class KeyLog {
    var names: Set<String> = []
    var usesAllKeys = false
}

struct NodeDecoder: Decoder {
    let node: Node
    let state: DecodeState
    let codingPath: [CodingKey]
    let reserved: Set<String>
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping = node else {
            throw state.document.error(at: node, "expected a mapping of options, found \(node.kindName)")
        }
        let log = KeyLog()
        state.visited.append((node, log, reserved))
        return KeyedDecodingContainer(KeyedNodeContainer<Key>(decoder: self, log: log))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        switch node {
        case .sequence(let seq): return UnkeyedNodeContainer(decoder: self, items: Array(seq))
        case .scalar:  // a single value where a list is expected: accept it as a one-item list
            return UnkeyedNodeContainer(decoder: self, items: [node])
        default:
            throw state.document.error(at: node, "expected a list, found \(node.kindName)")
        }
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { SingleNodeContainer(decoder: self) }

    func child(_ node: Node, key: CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, state: state, codingPath: codingPath + [key], reserved: [])
    }

    func scalar() throws -> String {
        guard let text = node.scalarText else {
            throw state.document.error(at: node, "expected a value, found \(node.kindName)")
        }
        return try state.document.interpolate(text, at: node)
    }

    func decodeScalar<T>(_ what: String, _ convert: (String) -> T?) throws -> T {
        let text = try scalar()
        guard let v = convert(text) else {
            throw state.document.error(at: node, "expected \(what), found '\(text)'")
        }
        return v
    }
}

struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ i: Int) { stringValue = String(i); intValue = i }
    init?(stringValue: String) { self.stringValue = stringValue; intValue = nil }
    init?(intValue: Int) { self.init(intValue) }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let log: KeyLog
    var codingPath: [CodingKey] { decoder.codingPath }

    private var pairs: [(key: Node, value: Node)] { decoder.node.mappingPairs ?? [] }

    var allKeys: [Key] {
        log.usesAllKeys = true
        return pairs.compactMap { $0.key.scalarText.flatMap(Key.init(stringValue:)) }
    }

    private func value(for key: Key) -> Node? {
        log.names.insert(key.stringValue)
        return pairs.first(where: { $0.key.scalarText == key.stringValue })?.value
    }

    private func require(_ key: Key) throws -> NodeDecoder {
        guard let v = value(for: key) else {
            throw decoder.state.document.error(at: decoder.node, "missing required option '\(key.stringValue)'")
        }
        return decoder.child(v, key: key)
    }

    func contains(_ key: Key) -> Bool { value(for: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let v = value(for: key) else { return true }
        if case .scalar(let s) = v, s.style == .plain, ["", "~", "null"].contains(s.string) { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try require(key).decodeValue(T.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if try decodeNil(forKey: key) { return nil }
        return try require(key).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try require(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try require(key).unkeyedContainer() }
    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder { try require(key) }
}

struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [Node]
    var currentIndex = 0
    var codingPath: [CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(decoder: NodeDecoder, items: [Node]) {
        self.decoder = decoder
        self.items = items
    }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else { throw decoder.state.document.error(at: decoder.node, "the list has too few items") }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return true }
        if case .scalar(let s) = items[currentIndex], s.style == .plain, ["", "~", "null"].contains(s.string) {
            currentIndex += 1
            return true
        }
        return false
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> Decoder { try next() }
}

struct SingleNodeContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .scalar(let s) = decoder.node, s.style == .plain, ["", "~", "null"].contains(s.string) { return true }
        return false
    }
    func decode(_ type: Bool.Type) throws -> Bool {
        try decoder.decodeScalar("true or false") {
            switch $0.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: return nil
            }
        }
    }
    func decode(_ type: String.Type) throws -> String { try decoder.scalar() }
    // Every configured number is finite (NumberRule.finite): nan, inf and 1e400 are refused here.
    func decode(_ type: Double.Type) throws -> Double {
        try decoder.decodeScalar("a finite number") { Double($0).flatMap { NumberRule.finite.allows($0) ? $0 : nil } }
    }
    func decode(_ type: Float.Type) throws -> Float {
        try decoder.decodeScalar("a finite number") { Float($0).flatMap { $0.isFinite ? $0 : nil } }
    }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeScalar("a whole number") { Int($0) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeScalar("a whole number") { Int8($0) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeScalar("a whole number") { Int16($0) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeScalar("a whole number") { Int32($0) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeScalar("a whole number") { Int64($0) } }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeScalar("a whole number ≥ 0") { UInt($0) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeScalar("a whole number ≥ 0") { UInt8($0) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeScalar("a whole number ≥ 0") { UInt16($0) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeScalar("a whole number ≥ 0") { UInt32($0) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeScalar("a whole number ≥ 0") { UInt64($0) } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
}

extension NodeDecoder {
    /// Decodes `T`, turning a `DecodingError` thrown inside a custom `init(from:)` into a located error.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let single = SingleNodeContainer(decoder: self)
        switch type {
        case is String.Type: return try single.decode(String.self) as! T
        case is Bool.Type: return try single.decode(Bool.self) as! T
        case is Double.Type: return try single.decode(Double.self) as! T
        case is Int.Type: return try single.decode(Int.self) as! T
        default: break
        }
        do {
            return try T(from: self)
        } catch let e as DecodingError {
            switch e {
            case .dataCorrupted(let ctx), .typeMismatch(_, let ctx), .valueNotFound(_, let ctx):
                if ctx.codingPath.count <= codingPath.count { throw state.document.error(at: node, ctx.debugDescription) }
                throw e
            default: throw e
            }
        }
    }
}
