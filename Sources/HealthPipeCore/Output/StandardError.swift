import Foundation
import Synchronization

/// Standard error as the channel of a run's report, warnings and errors: a write that fails (a full
/// disk, `2> /dev/full`, a closed pipe) cannot be reported on it, so it is remembered, and the
/// command's exit status says so (`HealthPipeMain`: a status of 0 becomes 1; other statuses stay).
public enum StandardError {
    /// errno of the first write that failed; 0 while every write succeeded.
    private static let firstFailure = Atomic<Int32>(0)

    public static func write(_ bytes: [UInt8]) {
        if let code = bytes.withUnsafeBytes({ AtomicFile.writeAll(2, $0) }) {
            _ = firstFailure.compareExchange(expected: 0, desired: code == 0 ? EIO : code, ordering: .relaxed)
        }
    }

    /// Why a write to standard error failed; nil when none did.
    public static var writeProblem: String? {
        let code = firstFailure.load(ordering: .relaxed)
        return code == 0 ? nil : OSError.reason(code)
    }
}
