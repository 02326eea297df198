/// `--shard i/n`: one of n disjoint parts of a set of inputs, for running the same command on many
/// machines (Spark executors, a Slurm array, a Kubernetes indexed job). A file belongs to shard
/// `fmix64(fnv1a64(id)) mod n` (`StableHash`, over the id's UTF-8), where the id is the participant — the subject, when one is
/// given — or else the file's base name: never its position in a list, its folder or its mtime,
/// so the same inputs split the same way on every machine and on every retry. Shards count from 0
/// (`SLURM_ARRAY_TASK_ID`, `JOB_COMPLETION_INDEX`).
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "shard index out of range")
        self.index = index
        self.count = count
    }

    /// Parses `i/n` (0 ≤ i < n); nil with the reason when the text is not one.
    public static func parse(_ text: String) -> Result<Shard, ShardError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            return .failure(ShardError(message: "--shard \(text): expected i/n, e.g. 0/4 (shard i of n, counting from 0)"))
        }
        guard n >= 1 else { return .failure(ShardError(message: "--shard \(text): the number of shards must be at least 1")) }
        guard (0..<n).contains(i) else {
            return .failure(ShardError(message: "--shard \(text): the shard index counts from 0 to \(n - 1)"))
        }
        return .success(Shard(index: i, count: n))
    }

    /// The shard an id belongs to among `count`.
    public static func of(id: String, count: Int) -> Int { Int(StableHash.fmix64(StableHash.fnv1a64(id)) % UInt64(count)) }

    public func contains(id: String) -> Bool { Self.of(id: id, count: count) == index }

    /// The id of an input: the subject when one is given, else the file's base name.
    public static func id(path: String, subject: String?) -> String {
        if let subject, !subject.isEmpty { return subject }
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    public var description: String { "\(index)/\(count)" }
}

public struct ShardError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
