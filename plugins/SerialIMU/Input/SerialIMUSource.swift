#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthPipeCore
import Synchronization

/// A stop request from outside the engine (tests, embedding apps); Ctrl-C goes through
/// `StageContext.shouldStop`.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func set() { flag.store(true, ordering: .relaxed) }
    public var isSet: Bool { flag.load(ordering: .relaxed) }
}

/// The `serial-imu` source: reads an accelerometer stream from a serial device, a BLE bridge pty
/// or a recorded capture, on its own stage thread with short poll timeouts, and emits
/// `MotionSample`s. Bad bytes are rejected (never fatal); a disconnect emits a stream-break
/// marker and, with `reconnect`, the device is reopened with exponential backoff.
public final class SerialIMUSource: Source, InputDescribing {
    public struct Settings: Sendable {
        public var path: String
        public var baud = 9600
        public var layout = StreamLayout()
        public var reconnect = false
        public var reconnectMaxDelayMs: Int64 = 5_000
        /// Stop when no byte has arrived for this long (nil: run until stopped or the input ends).
        public var exitAfterIdleMs: Int64?
        /// Time base for replays and relative time columns (epoch ms); nil: file mtime or now.
        public var startMs: Int64?
        public var device: String
        /// Treat the path as a device even when it is not (yet) a character device.
        public var forceDevice = false
        /// On a live device, this long without bytes emits a silence marker that ends the open
        /// session as idle (IMU_Capture prints only while moving). nil: never.
        public var silenceMs: Int64? = 3_000
        public var pollMs: Int32 = 100
        public var batchSize = 2048

        public init(path: String, device: String? = nil) {
            self.path = path
            self.device = device ?? String(path.split(separator: "/").last ?? Substring(path))
        }
    }

    public let settings: Settings
    public let stop: StopFlag
    /// Connections made so far (the first open counts); read by tests after the run.
    public private(set) var connections = 0
    public private(set) var samplesRead: Int64 = 0

    public init(settings: Settings, stop: StopFlag = StopFlag()) {
        self.settings = settings
        self.stop = stop
    }

    /// Devices are not files to log in the imports table; replays (a regular file) are.
    public var inputPaths: [String] {
        var st = stat()
        return !settings.forceDevice && stat(settings.path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG ? [settings.path] : []
    }

    public func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        // The loop keeps `emit` only while this call runs.
        try withoutActuallyEscaping(emit) { emit in
            var reader = StreamReadLoop(settings: settings, context: context, stop: stop, emit: emit)
            defer {
                connections = reader.connections
                samplesRead = reader.samplesRead
            }
            try reader.run()
        }
    }
}
