/// Limits checked on a YAML text before Yams parses it. Yams builds (and frees) its node tree
/// recursively, so a 10 KB file nested 5,000 levels deep overflows the stack and kills the process;
/// an alias-heavy file can make any walk over the tree exponential. Configuration files are small
/// and shallow, so generous limits cost real files nothing and turn an attack into a clear error.
public enum YAMLLimits {
    public static let maxBytes = 1 << 20
    public static let maxDepth = 64
    public static let maxAliases = 1000

    /// The first limit `text` exceeds, as a config error pointing at where it happens; nil when
    /// the text is within every limit.
    public static func violation(in text: String, file: String) -> ConfigError? {
        let size = text.utf8.count
        if size > maxBytes {
            return ConfigError(file: file, line: 1, column: 1,
                               message: "the file is \(size) bytes; a configuration file may have at most \(maxBytes >> 10) KiB")
        }
        var scan = DepthScan()
        var lineNumber = 0
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            scan.line(line)
            if scan.depth > maxDepth {
                return ConfigError(file: file, line: lineNumber, column: 1,
                                   message: "nested more than \(maxDepth) levels deep; configuration files are never this deep")
            }
            if scan.aliases > maxAliases {
                return ConfigError(file: file, line: lineNumber, column: 1,
                                   message: "more than \(maxAliases) aliases (*name); configuration files never need this many")
            }
        }
        return nil
    }

    /// Tracks nesting line by line without parsing: block levels by indentation (and `- ` / `? `
    /// indicators that open a level on the same line), flow levels by `[` `{` outside quotes.
    private struct DepthScan {
        var indents: [Int] = []
        var flow = 0
        var aliases = 0
        var depth = 0

        mutating func line(_ bytes: Substring.UTF8View.SubSequence) {
            var i = bytes.startIndex
            var indent = 0
            while i < bytes.endIndex, bytes[i] == UInt8(ascii: " ") { indent += 1; i = bytes.index(after: i) }
            guard i < bytes.endIndex, bytes[i] != UInt8(ascii: "#"), bytes[i] != 0x0D else { return }
            if flow == 0 {
                while let last = indents.last, last >= indent { indents.removeLast() }
                indents.append(indent)
            }
            var sameLine = 0
            var quote: UInt8 = 0
            var atStart = true
            var previous: UInt8 = UInt8(ascii: " ")
            while i < bytes.endIndex {
                let b = bytes[i]
                if quote != 0 {
                    if b == quote { quote = 0 }
                } else {
                    switch b {
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        if previous == UInt8(ascii: " ") || previous == UInt8(ascii: "[") || previous == UInt8(ascii: "{")
                            || previous == UInt8(ascii: ",") || previous == UInt8(ascii: ":") { quote = b }
                    case UInt8(ascii: "#") where previous == UInt8(ascii: " "):
                        i = bytes.endIndex
                        continue
                    case UInt8(ascii: "["), UInt8(ascii: "{"): flow += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"): flow = max(0, flow - 1)
                    case UInt8(ascii: "*") where previous == UInt8(ascii: " ") || previous == UInt8(ascii: "[")
                        || previous == UInt8(ascii: ","):
                        aliases += 1
                    case UInt8(ascii: "-"), UInt8(ascii: "?"):
                        // `- - - x` opens a sequence per indicator on one line.
                        let next = bytes.index(after: i)
                        if atStart, next == bytes.endIndex || bytes[next] == UInt8(ascii: " ") { sameLine += 1 } else { atStart = false }
                    case UInt8(ascii: " "):
                        break
                    default:
                        atStart = false
                    }
                }
                previous = b
                depth = max(depth, indents.count + sameLine + flow)
                i = bytes.index(after: i)
            }
        }
    }
}
