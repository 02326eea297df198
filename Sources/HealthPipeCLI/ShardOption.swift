import ArgumentParser
import HealthPipeCore

/// `--shard i/n` for the commands that take many inputs (import, run): see `Shard` and docs/scale-out.md.
struct ShardOption: ParsableArguments {
    @Option(help: ArgumentHelp("Process only shard i of n (0 ≤ i < n): the inputs whose id — the subject when given, else "
                               + "the file's base name — hashes (FNV-1a 64, then fmix64) to i mod n. Same split on every machine.",
                               valueName: "i/n"))
    var shard: String?

    /// The parsed shard; nil when not asked for. A malformed value is a configuration error (exit 2).
    func parsed() throws -> Shard? {
        guard let shard else { return nil }
        switch Shard.parse(shard) {
        case .success(let s): return s
        case .failure(let e): throw configFailure(e)
        }
    }

    /// Says on stderr what this shard keeps (stdout may be a record stream).
    static func note(_ shard: Shard, kept: Int, of total: Int, what: String) {
        printError("shard \(shard): \(kept) of \(total) \(what)" + (kept == 0 ? "; nothing to do" : ""))
    }
}
