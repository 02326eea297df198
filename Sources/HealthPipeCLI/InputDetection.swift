import BuiltinPlugins
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
        return detected(Result { try FileSniff.read(path: path) }, shown: shown, registry: registry)
    }

    /// The format a file's sniff shows, or why it cannot be read.
    static func detected(_ sniff: Result<FileSniff, any Error>, shown: String, registry: ComponentRegistry) -> Outcome {
        do {
            return .found(try registry.identify(sniff.get()).name)
        } catch let e as InputError {
            // The reader says what the file is when it can (empty, binary, UTF-16 without a mark, a broken zip).
            let hint = e.reason.hasPrefix("unknown format") ? " (use --format to force one)" : ""
            return .unreadable("\(shown): \(e.reason)\(hint)")
        } catch {
            return .unreadable("\(shown): \(error)")
        }
    }

    /// Detection that reads the YAML adapters only once a file needs them: reading and compiling
    /// them is most of a one-file import's start, and no adapter can take a file a compiled-in format
    /// claims above an adapter's score (`BuiltinPlugins.claimedWithoutAdapters`). They are read when
    /// `--format` names no compiled-in source or one that finds formats at run time (a zip of exports,
    /// `auto`), when no compiled-in format claims a file so, and at
    /// once when extra adapter folders are given (a broken one is reported before anything is read).
    struct AdaptersWhenNeeded {
        private(set) var registry: ComponentRegistry
        private var complete: Bool
        private let shared: SharedOptions

        init(shared: SharedOptions) throws {
            self.shared = shared
            complete = shared.hasExtraAdapterFolders
            registry = complete ? try shared.registry() : try BuiltinPlugins.builtInRegistry()
        }

        mutating func type(of path: String, shown: String, forced: String?) throws -> Outcome {
            if let forced {
                let compiledIn = registry.component(named: forced).map { !$0.findsFormatsAtRun } ?? false
                if !compiledIn { try readAdapters() }
                return InputDetection.type(of: path, shown: shown, forced: forced, registry: registry)
            }
            // Read once: a pipe's first bytes are handed on to its source.
            let sniff = Result { try FileSniff.read(path: path) }
            if !complete, case .success(let s) = sniff, let claimed = BuiltinPlugins.claimedWithoutAdapters(s, builtIn: registry) {
                return .found(claimed.name)
            }
            try readAdapters()
            return InputDetection.detected(sniff, shown: shown, registry: registry)
        }

        private mutating func readAdapters() throws {
            guard !complete else { return }
            registry = try shared.registry()
            complete = true
        }
    }
}
