/// Finds where top-level elements of a HealthData document begin and end by counting tags, without
/// parsing them: used after libxml2 stopped on a malformed element, to know which bytes to quarantine
/// and where the next element starts. Quotes, comments, CDATA, processing instructions and
/// declarations are followed so a `>` or `<` inside them does not count. Constant memory, however
/// deep or long the element (it only counts).
struct ElementSkipper {
    enum Event: Equatable {
        /// A child of the root begins: offset of its `<` and its line.
        case start(at: Int64, line: Int64)
        /// That child ended: offset just past its last `>`, and the line there.
        case end(at: Int64, line: Int64)
        /// The root element itself closed: the document is over.
        case rootEnd(at: Int64)
    }

    private enum State {
        case text, lt, startTag, endTag, bang, comment, cdata, declaration, instruction
    }

    /// Global offset of the next byte to scan, and its line.
    private(set) var offset: Int64
    private(set) var line: Int64
    /// Open elements, the root included (1 = between the root's children).
    private(set) var depth: Int
    private var state = State.text
    private var quote: UInt8 = 0
    private var lastNonSpace: UInt8 = 0
    private var tagStart: Int64 = 0
    private var tagLine: Int64 = 0
    /// How far a multi-byte marker (`--`, `[CDATA[`, `-->`, `]]>`, `?>`) has matched.
    private var matched = 0

    init(offset: Int64, line: Int64, depth: Int = 1) {
        self.offset = offset
        self.line = line
        self.depth = depth
    }

    /// Scans `bytes` from index `from` (the byte at `offset`) and returns the next event, with `from`
    /// moved past it; nil when the bytes ran out first.
    mutating func next(in bytes: UnsafeRawBufferPointer, from: inout Int) -> Event? {
        while from < bytes.count {
            let b = bytes[from]
            from += 1
            let at = offset
            offset += 1
            if b == 0x0A { line += 1 }
            switch state {
            case .text:
                if b == UInt8(ascii: "<") {
                    state = .lt
                    tagStart = at
                    tagLine = line
                }
            case .lt:
                switch b {
                case UInt8(ascii: "/"): state = .endTag
                case UInt8(ascii: "!"): state = .bang; matched = 0
                case UInt8(ascii: "?"): state = .instruction; matched = 0
                case _ where Self.isNameStart(b):
                    state = .startTag
                    quote = 0
                    lastNonSpace = b
                    if depth == 1 { return .start(at: tagStart, line: tagLine) }
                default: state = .text  // a stray `<` in text
                }
            case .startTag:
                if quote != 0 {
                    if b == quote { quote = 0 }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ">") {
                    state = .text
                    if lastNonSpace == UInt8(ascii: "/") {
                        if depth == 1 { return .end(at: offset, line: line) }
                    } else {
                        depth += 1
                    }
                } else if !Self.isSpace(b) {
                    lastNonSpace = b
                }
            case .endTag:
                if b == UInt8(ascii: ">") {
                    state = .text
                    depth -= 1
                    if depth == 1 { return .end(at: offset, line: line) }
                    if depth <= 0 { return .rootEnd(at: offset) }
                }
            case .bang:
                // `<!--` comment, `<![CDATA[` section, anything else a declaration up to `>`.
                if matched == 0, b == UInt8(ascii: "-") { matched = 1 }
                else if matched == 1, b == UInt8(ascii: "-") { state = .comment; matched = 0 }
                else if matched == 0, b == UInt8(ascii: "[") { state = .cdata; matched = 0 }
                else if b == UInt8(ascii: ">") { state = .text }
                else { state = .declaration }
            case .comment:
                if b == UInt8(ascii: "-") { matched = min(matched + 1, 2) }
                else if b == UInt8(ascii: ">"), matched == 2 { state = .text }
                else { matched = 0 }
            case .cdata:
                if b == UInt8(ascii: "]") { matched = min(matched + 1, 2) }
                else if b == UInt8(ascii: ">"), matched == 2 { state = .text }
                else { matched = 0 }
            case .declaration:
                if b == UInt8(ascii: ">") { state = .text }
            case .instruction:
                if b == UInt8(ascii: ">"), matched == 1 { state = .text }
                matched = b == UInt8(ascii: "?") ? 1 : 0
            }
        }
        return nil
    }

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b >= 0x80
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
