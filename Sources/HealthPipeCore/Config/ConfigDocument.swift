import Foundation
import Yams

/// A parsed YAML file that remembers where every node came from, so errors can point at it.
public struct ConfigDocument {
    public let file: String
    public let lines: [Substring]
    public let root: Node
    /// Environment used for `${NAME}` / `${NAME:-default}` interpolation.
    public let environment: [String: String]
    /// A pipeline the CLI built from its flags (`PipelineDraft`): nothing is interpolated, and an
    /// error names the flag its value came from (`flags`: "stage.option" → "--preset consensus").
    public let isCommandLine: Bool
    public let flags: [String: String]

    public init(file: String, text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.file = file
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        self.environment = environment
        isCommandLine = false
        flags = [:]
        // Checked before Yams runs: its parser recurses per nesting level.
        if let violation = YAMLLimits.violation(in: text, file: file) {
            var e = violation
            if e.line >= 1, e.line <= lines.count { e.excerpt = String(lines[e.line - 1]) }
            throw e
        }
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ConfigError(file: file, line: 1, column: 1, message: "the file is empty")
            }
            root = node
        } catch let e as YamlError {
            throw ConfigDocument.convert(e, file: file, lines: lines)
        }
        if let (key, first) = ConfigDocument.duplicateKey(in: root) {
            throw error(at: key, "'\(key.string ?? "")' is given twice in one mapping (first at line \(first)); "
                        + "YAML keeps only one of them, so say it once")
        }
    }

    /// The first mapping key that repeats an earlier key of its mapping, with the earlier key's line:
    /// YAML parsers keep one of the two silently, so a pipeline, settings file or adapter would run with
    /// a value its author did not mean. Iterative, so nesting depth costs no stack.
    static func duplicateKey(in root: Node) -> (Node, Int)? {
        var stack = [root]
        while let node = stack.popLast() {
            switch node {
            case .mapping(let m):
                var seen: [String: Int] = [:]
                for (k, v) in m {
                    if let name = k.string {
                        if let line = seen[name] { return (k, line) }
                        seen[name] = k.mark?.line ?? 0
                    }
                    stack.append(v)
                }
            case .sequence(let s): stack.append(contentsOf: s)
            default: break
            }
        }
        return nil
    }

    public static func load(path: String) throws -> ConfigDocument {
        let data: [UInt8]
        do {
            let input = try ByteInput.open(path)
            if input.kind == .regularFile, input.size > YAMLLimits.maxBytes {
                throw ConfigError(file: path, line: 1, column: 1, message: "the file is \(input.size) bytes; a configuration "
                                  + "file may have at most \(YAMLLimits.maxBytes >> 10) KiB")
            }
            data = try input.peek(YAMLLimits.maxBytes + 1)
        } catch let e as InputError {
            throw ConfigError(file: path, line: 0, column: 0, message: e.reason)
        }
        guard let text = String(bytes: data, encoding: .utf8) else {
            throw ConfigError(file: path, line: 1, column: 1, message: "the file is not UTF-8 text")
        }
        return try ConfigDocument(file: path, text: text)
    }

    /// The document of a pipeline built from a command's flags: `command` names it in errors.
    public init(command: String, root: Node, flags: [String: String] = [:]) {
        file = command
        lines = []
        environment = [:]
        isCommandLine = true
        self.flags = flags
        self.root = root
    }

    public func error(at node: Node?, _ message: String, suggestion: String? = nil) -> ConfigError {
        let line = node?.mark?.line ?? 0, column = node?.mark?.column ?? 0
        let excerpt = line >= 1 && line <= lines.count ? String(lines[line - 1]) : ""
        return ConfigError(file: file, line: line, column: column, message: message, excerpt: excerpt, suggestion: suggestion)
    }

    /// Expands `${NAME}` and `${NAME:-default}` in a scalar; an unset variable without a default is an error.
    public func interpolate(_ text: String, at node: Node) throws -> String {
        guard !isCommandLine, text.contains("${") else { return text }
        var out = ""
        var rest = text[...]
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                throw error(at: node, "unterminated ${ in '\(text)'")
            }
            let expr = rest[open.upperBound..<close]
            let (name, fallback): (Substring, Substring?) = {
                if let r = expr.range(of: ":-") { return (expr[..<r.lowerBound], expr[r.upperBound...]) }
                return (expr, nil)
            }()
            if let v = environment[String(name)], !v.isEmpty { out += v }
            else if let fallback { out += fallback }
            else { throw error(at: node, "environment variable \(name) is not set (write ${\(name):-default} for a default)") }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    static func convert(_ e: YamlError, file: String, lines: [Substring]) -> ConfigError {
        func make(_ mark: Mark, _ msg: String) -> ConfigError {
            let excerpt = mark.line >= 1 && mark.line <= lines.count ? String(lines[mark.line - 1]) : ""
            return ConfigError(file: file, line: mark.line, column: mark.column, message: msg, excerpt: excerpt)
        }
        switch e {
        case let .scanner(context, problem, mark, _):
            return make(mark, "YAML syntax: \(problem)" + (context.map { " \($0.text)" } ?? ""))
        case let .parser(context, problem, mark, _):
            return make(mark, "YAML syntax: \(problem)" + (context.map { " \($0.text)" } ?? ""))
        case let .composer(context, problem, mark, _):
            return make(mark, "YAML: \(problem)" + (context.map { " \($0.text)" } ?? ""))
        default:
            return ConfigError(file: file, line: 1, column: 1, message: "YAML: \(e)")
        }
    }
}

extension Node {
    /// The key nodes and values of a mapping in file order.
    var mappingPairs: [(key: Node, value: Node)]? {
        guard case .mapping(let m) = self else { return nil }
        return m.map { ($0.key, $0.value) }
    }
    var scalarText: String? {
        guard case .scalar(let s) = self else { return nil }
        return s.string
    }
    var kindName: String {
        switch self {
        case .scalar: return "a value"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }
}
