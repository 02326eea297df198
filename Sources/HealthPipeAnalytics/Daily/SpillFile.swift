#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthPipeCore

/// A scratch file for sorted runs of metric-day accumulators. It is unlinked as soon as it is
/// created, so it vanishes with the process however the run ends.
final class SpillFile {
    private let fd: Int32
    private(set) var size: Int64 = 0
    /// Byte ranges of the runs written so far.
    private(set) var runs: [Range<Int64>] = []

    init() throws {
        let dir = Self.temporaryDirectory
        var template = Array("\(dir)/healthpipe-daily-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw SpillError("cannot create a scratch file in \(dir) for daily summaries (errno \(errno))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends one sorted run.
    func writeRun(_ entries: [(key: MetricDayKey, value: MetricDay)]) throws {
        var out = SpillEncoder()
        let start = size
        for e in entries {
            out.append(e.key, e.value)
            if out.bytes.count >= 1 << 16 { try flush(&out) }
        }
        try flush(&out)
        runs.append(start..<size)
    }

    private func flush(_ out: inout SpillEncoder) throws {
        try out.bytes.withUnsafeBytes { buf in
            var done = 0
            while done < buf.count {
                let n = pwrite(fd, buf.baseAddress! + done, buf.count - done, off_t(size) + off_t(done))
                if n < 0 { throw SpillError("cannot write the daily-summary scratch file (errno \(errno))") }
                done += n
            }
        }
        size += Int64(out.bytes.count)
        out.bytes.removeAll(keepingCapacity: true)
    }

    /// Reads one run back, entry by entry, through a small buffer.
    func reader(_ run: Range<Int64>) -> SpillReader { SpillReader(fd: fd, range: run) }
}

extension SpillFile {
    /// Where scratch files go: $TMPDIR, else /tmp.
    static var temporaryDirectory: String {
        if let t = getenv("TMPDIR"), t.pointee != 0 { return String(cString: t) }
        return "/tmp"
    }
}

struct SpillError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// Entry layout: length (u32), subject, metric (u32), day (i64), unit (u32), count (i64), min, max,
/// mean, m2 (f64), flags (u8: 1 below, 2 above), band count (u32), then (band u32, count i64) pairs.
struct SpillEncoder {
    var bytes: [UInt8] = []

    mutating func append(_ k: MetricDayKey, _ d: MetricDay) {
        let length = 4 + 4 + 4 + 8 + 4 + 8 + 32 + 1 + 4 + d.bandCounts.count * 12
        put(UInt32(length))
        put(k.subject.id); put(k.metric.id); put(k.day)
        put(d.unit.id); put(Int64(d.count))
        put(d.min.bitPattern); put(d.max.bitPattern); put(d.mean.bitPattern); put(d.m2.bitPattern)
        bytes.append((d.below ? 1 : 0) | (d.above ? 2 : 0))
        put(UInt32(d.bandCounts.count))
        for (band, c) in d.bandCounts { put(band.id); put(Int64(c)) }
    }

    private mutating func put<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// Sequential reader of one run.
struct SpillReader {
    private let fd: Int32
    private var next: Int64
    private let end: Int64
    private var buffer: [UInt8] = []
    private var pos = 0

    init(fd: Int32, range: Range<Int64>) {
        self.fd = fd
        next = range.lowerBound
        end = range.upperBound
    }

    mutating func read() throws -> (key: MetricDayKey, value: MetricDay)? {
        guard try available(4) else { return nil }
        let length = Int(get(UInt32.self, at: pos))
        guard try available(length) else { throw SpillError("the daily-summary scratch file is truncated") }
        var p = pos + 4
        func take<T: FixedWidthInteger>(_: T.Type) -> T { defer { p += MemoryLayout<T>.size }; return get(T.self, at: p) }
        let key = MetricDayKey(subject: Symbol(id: take(UInt32.self)), metric: Symbol(id: take(UInt32.self)), day: take(Int64.self))
        var d = MetricDay(unit: Symbol(id: take(UInt32.self)))
        d.count = Int(take(Int64.self))
        d.min = Double(bitPattern: take(UInt64.self))
        d.max = Double(bitPattern: take(UInt64.self))
        d.mean = Double(bitPattern: take(UInt64.self))
        d.m2 = Double(bitPattern: take(UInt64.self))
        let flags = buffer[p]
        p += 1
        d.below = flags & 1 != 0
        d.above = flags & 2 != 0
        let bands = Int(take(UInt32.self))
        for _ in 0..<bands { d.bandCounts[Symbol(id: take(UInt32.self))] = Int(take(Int64.self)) }
        pos += length
        return (key, d)
    }

    private func get<T: FixedWidthInteger>(_: T.Type, at i: Int) -> T {
        buffer.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: i, as: T.self)) }
    }

    /// Makes `n` bytes available at `pos`, refilling from the file; false at the run's end.
    private mutating func available(_ n: Int) throws -> Bool {
        if buffer.count - pos >= n { return true }
        buffer.removeSubrange(0..<pos)
        pos = 0
        while buffer.count < n && next < end {
            let want = Int(min(Int64(max(1 << 16, n)), end - next))
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: want))
            let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + old, want, off_t(next)) }
            if got <= 0 { throw SpillError("cannot read the daily-summary scratch file (errno \(errno))") }
            buffer.removeLast(want - got)
            next += Int64(got)
        }
        return buffer.count >= n
    }
}
