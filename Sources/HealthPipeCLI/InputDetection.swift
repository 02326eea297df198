import HealthPipeCore

/// Which source reads a file: the forced `--format`, else the format its content shows (never its
/// name). The one place the commands that take files (import, metrics, evaluate) decide it.
enum InputDetection {
    enum Outcome {
        case found(String)
        /// The file cannot be read or its format is unknown: skip it, exit 1 (message names it).
        case unreadable(String)
        /// `--format` names no source: a configuration error (exit 2).
        case unknownType(String)
    }

    static func type(of path: String, shown: String, forced: String?, registry: ComponentRegistry) -> Outcome {
        if let forced {
            guard let c = registry.component(named: forced), c.role == .source else {
                let names = registry.all(role: .source).map(\.name)
                return .unknownType("--format \(forced): unknown source type '\(forced)'"
                    + (NameSuggester.nearest(to: forced, in: names).map { " (did you mean '\($0)'?)" } ?? ""))
            }
            return .found(forced)
        }
        guard let sniff = FileSniff.read(path: path) else { return .unreadable("\(shown): cannot read the file") }
        guard let c = registry.detectFormat(of: sniff) else {
            let known = registry.all(role: .source).filter { $0.detect != nil }.map(\.name).joined(separator: ", ")
            let first = sniff.lines(1).first.map { String($0.prefix(80)) } ?? ""
            return .unreadable("\(shown):1: unknown format: not any of \(known) (use --format to force one)"
                               + (sniff.prefix.isEmpty ? " (the file is empty)" : "; it starts with '\(first)'"))
        }
        return .found(c.name)
    }
}
