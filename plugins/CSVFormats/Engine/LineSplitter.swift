import Foundation

/// Splits a byte stream into lines ending in LF, CRLF or a lone CR (old Mac exports), chunk by
/// chunk: a line crossing chunks is gathered (bounded), a CR at the end of a chunk waits for the
/// next chunk's first byte to tell CR from CRLF. A line longer than `maxLineBytes` is reported by
/// its head only, never buffered whole.
struct LineSplitter {
    enum Line {
        /// A line with its terminator (none for the last line of an input without one).
        case text(UnsafeRawBufferPointer)
        /// A line over the limit: its first bytes, for the error report.
        case overlong(head: [UInt8])
    }

    static let headBytes = 256
    let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var pendingCR = false
    private var oversized = false
    /// Bytes of the over-long line being skipped so far (0 when none): its reader may give up on it.
    private(set) var overlongBytes: Int64 = 0

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    mutating func split(_ chunk: UnsafeRawBufferPointer, _ body: (Line) throws -> Void) rethrows {
        let n = chunk.count
        guard n > 0, let base = chunk.baseAddress else { return }
        var start = 0
        if pendingCR {
            pendingCR = false
            if base.load(as: UInt8.self) == 0x0A {
                gather(UnsafeRawBufferPointer(start: base, count: 1))
                start = 1
            }
            try completePending(body)
        }
        var nextLF = -1, nextCR = -1
        while start < n {
            if nextLF < start { nextLF = memchr(base + start, 0x0A, n - start).map { UnsafeRawPointer($0) - base } ?? n }
            if nextCR < start { nextCR = memchr(base + start, 0x0D, n - start).map { UnsafeRawPointer($0) - base } ?? n }
            let t = min(nextLF, nextCR)
            if t == n {
                gather(UnsafeRawBufferPointer(start: base + start, count: n - start))
                return
            }
            var end = t + 1
            if t == nextCR {
                if end == n {
                    // CR at the chunk's end: CRLF or a lone CR is decided by the next chunk.
                    gather(UnsafeRawBufferPointer(start: base + start, count: end - start))
                    pendingCR = true
                    return
                }
                if base.load(fromByteOffset: end, as: UInt8.self) == 0x0A { end += 1 }
            }
            let line = UnsafeRawBufferPointer(start: base + start, count: end - start)
            if pending.isEmpty, !oversized {
                if line.count > maxLineBytes {
                    try body(.overlong(head: Array(line.prefix(Self.headBytes))))
                } else {
                    try body(.text(line))
                }
            } else {
                gather(line)
                try completePending(body)
            }
            start = end
        }
    }

    /// The last line when the input does not end with a line break.
    mutating func finish(_ body: (Line) throws -> Void) rethrows {
        pendingCR = false
        if !pending.isEmpty || oversized { try completePending(body) }
    }

    private mutating func gather(_ bytes: UnsafeRawBufferPointer) {
        if oversized {
            overlongBytes += Int64(bytes.count)
            return
        }
        if pending.count + bytes.count > maxLineBytes {
            oversized = true
            overlongBytes = Int64(pending.count + bytes.count)
            let room = max(0, Self.headBytes - pending.count)
            pending.append(contentsOf: bytes.prefix(room))
            pending = Array(pending.prefix(Self.headBytes))
            return
        }
        pending.append(contentsOf: bytes)
    }

    private mutating func completePending(_ body: (Line) throws -> Void) rethrows {
        if oversized {
            oversized = false
            overlongBytes = 0
            let head = pending
            pending.removeAll(keepingCapacity: false)
            try body(.overlong(head: head))
            return
        }
        let line = pending
        pending.removeAll(keepingCapacity: true)
        try line.withUnsafeBytes { try body(.text($0)) }
    }
}
