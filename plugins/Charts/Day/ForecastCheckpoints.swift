import HealthPipeAnalytics
import HealthPipeCore
import Synchronization

/// A long-running process's memory of each subject's fitted forecaster (`serve` keeps one), so a
/// day view does not fit the personal model again: the fit streams the subject's first week or
/// more and cost most of a day view's time. A checkpoint is the state `DayForecasts` reaches when
/// the fit is done; it holds while what the fit read is unchanged — checked against a digest of
/// those readings and doses whenever the store's version (any commit moves it) is not the one the
/// checkpoint was last checked at.
public final class ForecastCheckpoints: Sendable {
    struct Key: Hashable {
        var subject: String
        var model: ForecastModelKind
        var steps: Int
        /// The subject's first reading: the fit starts there.
        var first: Int64
    }

    /// The streaming phase's end state. The forecaster is never changed once stored: each use
    /// continues from a copy — hence the unchecked Sendable.
    struct Checkpoint: @unchecked Sendable {
        let forecaster: SubjectForecaster
        let fedThrough: Int64
        let treatmentsUntil: Int64
        /// The streaming stopped at this time: the state serves forecasts issued from here on.
        let end: Int64
        /// Of the readings (and doses) in [first, end): what the state was computed from.
        let digest: UInt64
        var checkedAt: String
    }

    private let storeVersion: @Sendable () -> String
    private let entries = Mutex<[Key: Checkpoint]>([:])

    /// `storeVersion`: a text that changes whenever the store commits (`serve`: the database files' sizes and times).
    public init(storeVersion: @escaping @Sendable () -> String) {
        self.storeVersion = storeVersion
    }

    var version: String { storeVersion() }

    /// The checkpoint for `key` if it serves forecasts issued from `from` on and still matches the
    /// store; `digest` recomputes what it was made from (only when the store has moved since).
    func usable(_ key: Key, from: Int64, version: String, digest: (_ first: Int64, _ end: Int64) throws -> UInt64) rethrows -> Checkpoint? {
        guard let cp = entries.withLock({ $0[key] }), from >= cp.end else { return nil }
        if cp.checkedAt == version { return cp }
        guard try digest(key.first, cp.end) == cp.digest else { return nil }
        entries.withLock { $0[key]?.checkedAt = version }
        return cp
    }

    func store(_ key: Key, _ checkpoint: Checkpoint) {
        entries.withLock { $0[key] = checkpoint }
    }
}

/// A checkpoint's digest of the rows it was computed from: FNV-1a (`StableHash`) over their numbers' bytes.
struct RowDigest {
    private(set) var value = StableHash.offsetBasis

    mutating func add(_ word: UInt64) {
        value = withUnsafeBytes(of: word.littleEndian) { StableHash.fnv1a64($0, from: value) }
    }

    mutating func add(_ v: Int64) { add(UInt64(bitPattern: v)) }
    mutating func add(_ v: Double) { add(v.bitPattern) }
}
