/// Decodes fixed binary frames: 3 × float32 LE (12 bytes) or 3 × int16 scaled (6 bytes), each
/// optionally preceded by sync bytes.
///
/// Resynchronisation: with sync bytes, bytes before a sync marker are skipped and reported as one
/// bad run, and a frame counts only when the next frame's marker follows it (or the stream ends right
/// after it): stray bytes hold marker-like pairs (a cut frame, line noise), and a marker alone would
/// decode them as frames. With a check byte (`checksum`), the check byte confirms the frame instead,
/// so a good frame followed by noise is kept. A frame whose values fail the checks, or that nothing
/// confirms, is dropped and the search restarts one byte after its marker. Without sync bytes, a frame that fails the checks (NaN, beyond the physical
/// range) means the stream slipped: one byte is skipped and decoding retried, until a frame is
/// valid again; the skipped run is reported once. Without a marker a slip is only seen when a
/// misaligned frame fails the checks (misaligned bytes often still make in-range floats), so use
/// `sync` whenever the sender can add one.
public struct BinaryFrameDecoder: StreamDecoder {
    private let layout: StreamLayout
    private let payloadSize: Int
    private var pending: [UInt8] = []
    /// Stream offset of pending[0].
    private var offset: Int64 = 0
    private var skipStart: Int64 = -1
    private var skipped: [UInt8] = []

    public init(layout: StreamLayout) {
        self.layout = layout
        self.payloadSize = layout.encoding == .float32 ? 12 : 6
    }

    private var frameSize: Int { layout.sync.count + payloadSize + (layout.checksum == .none ? 0 : 1) }

    /// The check byte after the payload at `p` matches the payload.
    private func checksumMatches(payloadAt p: Int) -> Bool {
        var x: UInt8 = 0
        for k in p..<(p + payloadSize) { x = layout.checksum == .xor8 ? x ^ pending[k] : x &+ pending[k] }
        return x == pending[p + payloadSize]
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ out: (DecodeEvent) throws -> Void) rethrows {
        pending.append(contentsOf: bytes)
        try decodeFrames(final: false, out)
    }

    private mutating func decodeFrames(final: Bool, _ out: (DecodeEvent) throws -> Void) rethrows {
        var i = 0
        while pending.count - i >= frameSize {
            if layout.checksum != .none {
                if !layout.sync.isEmpty, !matchesSync(at: i) { skip(at: i); i += 1; continue }
                if !checksumMatches(payloadAt: i + layout.sync.count) { skip(at: i); i += 1; continue }
            } else if !layout.sync.isEmpty {
                if !matchesSync(at: i) { skip(at: i); i += 1; continue }
                // The next marker confirms the frame; wait for it unless the stream ended right here.
                let next = i + frameSize
                if pending.count - next < layout.sync.count {
                    if !final { break }
                    if next != pending.count { skip(at: i); i += 1; continue }
                } else if !matchesSync(at: next) { skip(at: i); i += 1; continue }
            }
            let reading = decode(at: i + layout.sync.count)
            if ReadingCheck.problem(reading.accel, nil, layout: layout) != nil { skip(at: i); i += 1; continue }
            try flushSkipped(out)
            try out(.reading(RawReading(accel: reading.accel, gyro: nil, streamTimeMs: nil, position: offset + Int64(i))))
            i += frameSize
        }
        pending.removeFirst(i)
        offset += Int64(i)
    }

    public mutating func endOfStream(_ out: (DecodeEvent) throws -> Void) rethrows {
        try decodeFrames(final: true, out)
        for b in pending { if skipStart < 0 { skipStart = offset }; if skipped.count < 64 { skipped.append(b) } }
        offset += Int64(pending.count)
        pending.removeAll()
        try flushSkipped(out, reason: "partial frame or unsynchronised bytes at the end of the stream")
    }

    private func matchesSync(at i: Int) -> Bool {
        for (k, s) in layout.sync.enumerated() where pending[i + k] != s { return false }
        return true
    }

    private mutating func skip(at i: Int) {
        if skipStart < 0 { skipStart = offset + Int64(i) }
        if skipped.count < 64 { skipped.append(pending[i]) }
    }

    private mutating func flushSkipped(_ out: (DecodeEvent) throws -> Void,
                                       reason: String = "bytes skipped to regain frame alignment") rethrows {
        guard skipStart >= 0 else { return }
        let hex = skipped.map { String($0, radix: 16) }.joined(separator: " ")
        try out(.bad(position: skipStart, reason: reason, raw: hex))
        skipStart = -1
        skipped.removeAll(keepingCapacity: true)
    }

    private func decode(at p: Int) -> (accel: SIMD3<Float>, Void) {
        var v = SIMD3<Float>()
        for axis in 0..<3 {
            if layout.encoding == .float32 {
                let b = p + axis * 4
                let bits = UInt32(pending[b]) | UInt32(pending[b + 1]) << 8 | UInt32(pending[b + 2]) << 16 | UInt32(pending[b + 3]) << 24
                v[axis] = Float(bitPattern: bits) * layout.units.toG
            } else {
                let b = p + axis * 2
                let raw = layout.bigEndian ? UInt16(pending[b]) << 8 | UInt16(pending[b + 1])
                                           : UInt16(pending[b]) | UInt16(pending[b + 1]) << 8
                v[axis] = Float(Int16(bitPattern: raw)) * layout.int16Scale * layout.units.toG
            }
        }
        return (v, ())
    }
}
