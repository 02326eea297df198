/// argument-parser matches positional arguments in time that grows with the square of their number
/// (`healthpipe import exports/*.csv` with 20,000 files spent minutes before reading one). The file
/// operands of `import` after the first are taken aside before parsing (`split`) and joined to the
/// command's own list after it (`ImportCommand.run`), in their order.
enum ImportOperands {
    nonisolated(unsafe) static var takenAside: [String] = []

    /// The options of `import` that take a value (the next argument is theirs, not a file).
    static let valueOptions: Set<String> = [
        "--db", "--timezone", "--subject", "--plugin-path", "--shard", "--preset", "--format", "--on-error",
        "--quarantine", "--ndjson", "--report",
    ]

    /// `arguments` (without the program name) with the import's second and later file operands
    /// removed into `takenAside`; other commands, and everything after `--`, are left as they are.
    static func split(_ arguments: [String]) -> [String] {
        guard arguments.first == "import", arguments.count > 3 else { return arguments }
        var kept = ["import"]
        var operands = 0
        var i = 1
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" {
                kept += arguments[i...]
                break
            }
            if a.hasPrefix("-"), a != "-" {
                kept.append(a)
                if valueOptions.contains(a), i + 1 < arguments.count {
                    kept.append(arguments[i + 1])
                    i += 1
                }
            } else {
                operands += 1
                if operands == 1 { kept.append(a) } else { takenAside.append(a) }
            }
            i += 1
        }
        return kept
    }
}
