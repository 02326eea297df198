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
        do {
            return .found(try registry.identify(FileSniff.read(path: path)).name)
        } catch let e as InputError {
            // The reader says what the file is when it can (empty, binary, UTF-16 without a mark, a broken zip).
            let hint = e.reason.hasPrefix("unknown format") ? " (use --format to force one)" : ""
            return .unreadable("\(shown): \(e.reason)\(hint)")
        } catch {
            return .unreadable("\(shown): \(error)")
        }
    }
}
