#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthPipeCore

/// The read loop behind `SerialIMUSource`: connect, decode, stamp, batch, and on a disconnect
/// report the partial input, mark the break, and reconnect with backoff when asked to.
struct StreamReadLoop {
    let settings: SerialIMUSource.Settings
    let context: StageContext
    let stop: StopFlag
    let emit: (RecordBatch) throws -> Void

    private(set) var connections = 0
    private(set) var samplesRead: Int64 = 0
    private var batch: [MotionSample] = []
    private let device: Symbol
    private let file: Symbol
    private var clock: SampleClock
    private var lastByteAt: Int64
    private var inputIndex: Int?
    private var hasher = ContentHasher()
    private var silenceMarked = false

    init(settings: SerialIMUSource.Settings, context: StageContext, stop: StopFlag, emit: @escaping (RecordBatch) throws -> Void) {
        self.settings = settings
        self.context = context
        self.stop = stop
        self.emit = emit
        self.device = Symbol(settings.device)
        self.file = Symbol(settings.path)
        self.clock = SampleClock(periodMs: settings.layout.samplePeriodMs, gestureGapMs: settings.layout.gestureGapMs,
                                 live: false, start: 0)
        self.lastByteAt = monotonicMilliseconds()
        batch.reserveCapacity(settings.batchSize)
    }

    private var stopping: Bool {
        if context.shouldStop || stop.isSet { return true }
        if let idle = settings.exitAfterIdleMs, monotonicMilliseconds() - lastByteAt > idle { return true }
        return false
    }

    mutating func run() throws {
        var backoffMs: Int64 = 100
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while !stopping {
            let channel: ByteChannel
            do {
                channel = try ByteChannel.open(path: settings.path, baud: settings.baud, forceDevice: settings.forceDevice)
            } catch {
                guard settings.reconnect else {
                    throw InputError(file: settings.path, reason: "cannot open: \(error)")
                }
                sleepChecking(backoffMs)
                backoffMs = min(backoffMs * 2, settings.reconnectMaxDelayMs)
                continue
            }
            connections += 1
            backoffMs = 100
            if connections == 1 { setUpClock(for: channel) }
            clock.beginSegment(receivedAt: wallClockMilliseconds())
            lastByteAt = monotonicMilliseconds()
            let ended = try readUntilClosed(channel, buffer)
            channel.close()
            // A file or stdin that ended is done; a device may come back.
            if channel.kind != .device || !settings.reconnect || !ended { break }
            context.warn("\(settings.path): disconnected; reconnecting")
        }
        try flush()
        if let i = inputIndex { let hash = hasher.finalize(); context.updateInput(i) { $0.hash = hash } }
    }

    private mutating func setUpClock(for channel: ByteChannel) {
        let live = channel.kind == .device || (channel.kind == .standardInput && settings.startMs == nil)
        var start = settings.startMs ?? wallClockMilliseconds()
        if channel.kind == .file {
            // A replayed capture is an input like any file: its size and content hash reach the
            // imports log whether or not --start sets the clock.
            var st = stat()
            let known = fstat(channel.fd, &st) == 0
            if settings.startMs == nil, known { start = Int64(st.st_mtim.tv_sec) * 1000 }
            inputIndex = context.registerInput(InputFileInfo(path: settings.path, format: "serial-imu", size: known ? Int64(st.st_size) : 0))
        }
        clock = SampleClock(periodMs: settings.layout.samplePeriodMs, gestureGapMs: settings.layout.gestureGapMs,
                            live: live, start: start)
    }

    /// Reads until the channel closes (true) or a stop is requested (false).
    private mutating func readUntilClosed(_ channel: ByteChannel, _ buffer: UnsafeMutableRawBufferPointer) throws -> Bool {
        var decoder: any StreamDecoder = settings.layout.encoding == .text
            ? TextLineDecoder(layout: settings.layout) : BinaryFrameDecoder(layout: settings.layout)
        while true {
            switch channel.read(into: buffer, pollMilliseconds: settings.pollMs) {
            case .bytes(let n):
                lastByteAt = monotonicMilliseconds()
                let now = wallClockMilliseconds()
                context.progress.advance(Int64(n))
                if inputIndex != nil { hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) }
                try decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { try handle($0, now: now) }
                if batch.count >= settings.batchSize { try flush() }
            case .timeout:
                if channel.kind == .device { markSilenceIfDue() }
                // Nothing arrived: hand over what we have so live views stay current.
                try flush()
                if stopping { return false }
            case .closed(let why):
                try decoder.endOfStream { try handle($0, now: wallClockMilliseconds()) }
                if channel.kind == .device {
                    if clock.lastT != Int64.min { batch.append(.streamBreak(device: device, t: clock.lastT)) }
                    context.warn("\(settings.path): \(why)")
                }
                try flush()
                return true
            }
            if stopping {
                try flush()
                return false
            }
        }
    }

    /// Once per quiet spell after a reading: tells the session detector the device went silent.
    private mutating func markSilenceIfDue() {
        guard let silence = settings.silenceMs, !silenceMarked, clock.lastT != Int64.min else { return }
        let quiet = monotonicMilliseconds() - lastByteAt
        guard quiet >= silence else { return }
        batch.append(MotionSample(device: device, t: clock.lastT + quiet, ax: 0, ay: 0, az: 0, flags: .silence))
        silenceMarked = true
    }

    private mutating func handle(_ event: DecodeEvent, now: Int64) throws {
        switch event {
        case .reading(let r):
            silenceMarked = false
            if let problem = clock.problem(with: r, receivedAt: now) {
                if let i = inputIndex { context.updateInput(i) { $0.rejected += 1 } }
                try context.reject(RowError(file: settings.path, line: r.position, reason: problem, raw: ""))
                return
            }
            let (t, derived) = clock.time(for: r, receivedAt: now)
            batch.append(MotionSample(device: device, t: t, ax: r.accel.x, ay: r.accel.y, az: r.accel.z, gyro: r.gyro,
                                      flags: derived ? .derivedTime : [], provenance: Provenance(file: file, line: r.position)))
            samplesRead += 1
        case .gestureBreak:
            clock.gestureBreak()
        case .bad(let position, let reason, let raw):
            if let i = inputIndex { context.updateInput(i) { $0.rejected += 1 } }
            try context.reject(RowError(file: settings.path, line: position, reason: reason, raw: raw))
        }
    }

    private mutating func flush() throws {
        guard !batch.isEmpty else { return }
        if let i = inputIndex {
            let n = Int64(batch.count)
            context.updateInput(i) { $0.rowsRead += n }
        }
        try emit(RecordBatch(motionSamples: batch))
        batch.removeAll(keepingCapacity: true)
    }

    /// Sleeps in short steps so a stop request is noticed during a long backoff.
    private func sleepChecking(_ ms: Int64) {
        let until = monotonicMilliseconds() + ms
        while monotonicMilliseconds() < until, !context.shouldStop, !stop.isSet { usleep(20_000) }
    }
}
