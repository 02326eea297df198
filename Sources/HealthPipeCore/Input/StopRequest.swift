import CStopSignals

/// Ctrl-C / SIGTERM as seen by loops that read: every read loop checks it between reads, so a
/// stop is honoured within one read (or one poll interval on a pipe), whatever the input holds.
public enum StopRequest {
    public static var isRequested: Bool { healthpipe_stop_requested() != 0 }
    /// Makes SIGINT/SIGTERM set the flag (a second one exits at once); a command calls it once it runs.
    public static func installHandlers() { healthpipe_install_stop_handlers() }
}

/// Thrown by a read when the user asked to stop: the reader winds down and commits what it has.
public struct ReadInterrupted: Error, CustomStringConvertible, Sendable {
    public init() {}
    public var description: String { "stopped by a signal" }
}
