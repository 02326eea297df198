/// libxml2's SAX2 hands element and attribute names out of the parser's dictionary, so within one
/// document a name is always the same pointer: after one byte comparison a name is recognised by
/// its address. Bounded, so a hostile document with endless distinct names stays linear.
struct InternedNames<Code> {
    private var pointers: [UnsafePointer<UInt8>] = []
    private var codes: [Code] = []
    private let resolve: (UnsafePointer<UInt8>) -> Code
    static var capacity: Int { 32 }

    init(_ resolve: @escaping (UnsafePointer<UInt8>) -> Code) { self.resolve = resolve }

    /// Elements of one kind repeat their attributes in one order: the name met at `position` last
    /// time is tried first, one comparison instead of a search.
    private var hints: [(name: UnsafePointer<UInt8>, code: Code)] = []

    @inline(__always)
    mutating func code(_ name: UnsafePointer<UInt8>, at position: Int) -> Code {
        if position < hints.count, hints[position].name == name { return hints[position].code }
        let c = code(name)
        if position < hints.count { hints[position] = (name, c) } else if position == hints.count, position < Self.capacity { hints.append((name, c)) }
        return c
    }

    /// A new parser has a new dictionary: the old addresses may name other strings in it.
    mutating func forget() {
        pointers.removeAll()
        codes.removeAll()
        hints.removeAll()
    }

    @inline(__always)
    mutating func code(_ name: UnsafePointer<UInt8>) -> Code {
        for i in pointers.indices where pointers[i] == name { return codes[i] }
        let code = resolve(name)
        if pointers.count < Self.capacity {
            pointers.append(name)
            codes.append(code)
        }
        return code
    }
}

/// The attributes every sample element (Record, Correlation) carries that the handler reads.
enum SampleAttribute {
    case type, sourceName, startDate, endDate, unit, value, device, other

    static func of(_ n: UnsafePointer<UInt8>) -> SampleAttribute {
        if named(n, "type") { return .type }
        if named(n, "sourceName") { return .sourceName }
        if named(n, "startDate") { return .startDate }
        if named(n, "endDate") { return .endDate }
        if named(n, "unit") { return .unit }
        if named(n, "value") { return .value }
        if named(n, "device") { return .device }
        return .other
    }
}

/// Elements directly under HealthData.
enum TopElement {
    case record, correlation, workout, activitySummary, me, exportDate, other

    static func of(_ n: UnsafePointer<UInt8>) -> TopElement {
        if named(n, "Record") { return .record }
        if named(n, "Correlation") { return .correlation }
        if named(n, "Workout") { return .workout }
        if named(n, "ActivitySummary") { return .activitySummary }
        if named(n, "Me") { return .me }
        if named(n, "ExportDate") { return .exportDate }
        return .other
    }
}
