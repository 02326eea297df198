import HealthPipeCore

/// The FIT protocol decoder (docs/formats.md, "Garmin FIT"): file headers (12 or 14 bytes, with the
/// header CRC), definition messages (16 local types, either byte order, developer fields skipped by
/// their sizes), data messages with normal and compressed-timestamp headers, the CRC after each
/// file, and chained files (one FIT file after another in one input). It streams: each data message
/// is handed over from the read buffer and nothing is kept per message.
/// A damaged input never traps: what cannot be framed is reported as a `Problem` with its bytes, and
/// decoding goes on at the next FIT file when there is one.
struct FITDecoder {
    /// What the decoder found at the end of one FIT file of the input.
    struct Section {
        var index: Int
        var offset: Int64
        var dataSize: Int
        var messages = 0
        /// Why the file's bytes cannot be trusted (a CRC mismatch); nil when they check out.
        var damage: String?
        /// True when the input ended before the file's CRC (its messages up to the cut were read).
        var truncated = false
    }

    /// Bytes that are not a whole message: where, why, and the bytes themselves as hex.
    struct Problem {
        var offset: Int64
        var reason: String
        var hex: String
        var section: Int
    }

    private var definitions = [FITDefinition?](repeating: nil, count: 16)
    /// Each local type's definition message as written: a writer that repeats a definition before
    /// every message (some do) reuses the one built, so no message costs a new definition.
    private var definitionBytes = [[UInt8]](repeating: [], count: 16)
    private var lastTime: Int64?

    /// Decodes every FIT file of `bytes`. A message of a definition-less or damaged stretch ends the
    /// file it is in (its framing is lost); the next chained file is read after it.
    mutating func run(_ bytes: FITBytes, message: (FITMessage) throws -> Void, section: (Section) throws -> Void,
                      problem: (Problem) throws -> Void) throws {
        var index = 0
        while try bytes.ensure(1) {
            let start = bytes.offset
            var crc = FITCRC()
            guard let header = try readHeader(bytes) else {
                let left = try bytes.ensure(12) ? "" : " (\(bytes.available) bytes)"
                try problem(Problem(offset: start, reason: index == 0
                                        ? "not a FIT file: no FIT header (size 12 or 14, \".FIT\") at its start\(left)"
                                        : "bytes after the last FIT file that are not another FIT file's header\(left)",
                                    hex: bytes.hex(64), section: index))
                _ = try bytes.skip(Int.max, crc: &crc)
                return
            }
            var s = Section(index: index, offset: start, dataSize: header.dataSize)
            if let bad = header.crcProblem { s.damage = bad }
            bytes.consume(header.size, crc: &crc)
            for i in 0..<16 {
                definitions[i] = nil
                definitionBytes[i].removeAll(keepingCapacity: true)
            }
            lastTime = nil
            var left = header.dataSize
            while left > 0 {
                guard try bytes.ensure(1) else { break }
                let at = bytes.offset
                switch try readMessage(bytes, left: left, at: at, section: index, crc: &crc, message: message) {
                case .read(let n, let data):
                    left -= n
                    if data { s.messages += 1 }
                case .framingLost(let reason):
                    try problem(Problem(offset: at, reason: reason, hex: bytes.hex(min(left, 2048)), section: index))
                    left -= try bytes.skip(left, crc: &crc)
                case .cut(let reason):
                    try problem(Problem(offset: at, reason: reason, hex: bytes.hex(2048), section: index))
                    left -= try bytes.skip(left, crc: &crc)
                }
            }
            let crcThere = try bytes.ensure(2)
            if left > 0 || !crcThere {
                s.truncated = true
                _ = try bytes.skip(2, crc: &crc)
                try section(s)
                return
            }
            let written = bytes.peek(2) { UInt16($0[0]) | UInt16($0[1]) << 8 }
            let computed = crc.value
            bytes.consume(2, crc: &crc)
            if written != computed, s.damage == nil {
                s.damage = "its CRC (0x\(String(written, radix: 16))) does not match its bytes (0x\(String(computed, radix: 16))): the file is damaged"
            }
            try section(s)
            index += 1
        }
    }

    private struct Header { var size: Int; var dataSize: Int; var crcProblem: String? }

    /// A FIT file header at the read position, or nil when there is none.
    private func readHeader(_ bytes: FITBytes) throws -> Header? {
        guard try bytes.ensure(12) else { return nil }
        let size = bytes.peek(1) { Int($0[0]) }
        guard size == 12 || size == 14, try bytes.ensure(size) else { return nil }
        return bytes.peek(size) { p -> Header? in
            guard p[8] == 0x2E, p[9] == 0x46, p[10] == 0x49, p[11] == 0x54 else { return nil }  // ".FIT"
            let dataSize = Int(UInt32(p[4]) | UInt32(p[5]) << 8 | UInt32(p[6]) << 16 | UInt32(p[7]) << 24)
            var problem: String?
            if size == 14 {
                let written = UInt16(p[12]) | UInt16(p[13]) << 8
                var crc = FITCRC()
                crc.add(UnsafeRawBufferPointer(rebasing: p[0..<12]))
                if written != 0, written != crc.value {
                    problem = "its header's CRC (0x\(String(written, radix: 16))) does not match the header (0x\(String(crc.value, radix: 16)))"
                }
            }
            return Header(size: size, dataSize: dataSize, crcProblem: problem)
        }
    }

    private enum Step {
        /// `n` bytes read; `data`: a data message (not a definition).
        case read(Int, data: Bool)
        case framingLost(String)
        case cut(String)
    }

    private mutating func readMessage(_ bytes: FITBytes, left: Int, at: Int64, section: Int, crc: inout FITCRC,
                                      message: (FITMessage) throws -> Void) throws -> Step {
        let h = bytes.peek(1) { $0[0] }
        if h & 0x80 == 0, h & 0x40 != 0 {
            return try readDefinition(bytes, header: h, left: left, crc: &crc)
        }
        let local = h & 0x80 != 0 ? Int((h >> 5) & 0x3) : Int(h & 0x0F)
        guard let definition = definitions[local] else {
            return .framingLost("a data message of local type \(local), which no definition message defined: the rest of this FIT file cannot be read")
        }
        let n = 1 + definition.length
        guard n <= left else { return .framingLost("a \(definition.length)-byte message runs past the end of the FIT file's data") }
        guard try bytes.ensure(n) else { return .cut("the input ends inside a message (it is cut off)") }
        try bytes.peek(n) { p in
            let data = UnsafeRawBufferPointer(rebasing: p[1...])
            var time: Int64?
            if let t = definition.number(253, in: data) {
                time = FITTime.epoch(Int64(t))
            } else if h & 0x80 != 0, let last = lastTime {
                let lastFIT = last - FITTime.offset, low = Int64(h & 0x1F)
                time = FITTime.epoch(lastFIT + ((low - (lastFIT & 0x1F)) & 0x1F))
            }
            if let time { lastTime = time }
            try message(FITMessage(definition: definition, data: data, time: time, lastTime: lastTime, offset: at, section: section))
        }
        bytes.consume(n, crc: &crc)
        return .read(n, data: true)
    }

    private mutating func readDefinition(_ bytes: FITBytes, header h: UInt8, left: Int, crc: inout FITCRC) throws -> Step {
        guard try bytes.ensure(6) else { return .cut("the input ends inside a definition message (it is cut off)") }
        let fields = bytes.peek(6) { Int($0[5]) }
        let developer = h & 0x20 != 0
        var n = 6 + 3 * fields
        if developer {
            guard try bytes.ensure(n + 1) else { return .cut("the input ends inside a definition message (it is cut off)") }
            n += 1 + 3 * bytes.peek(n + 1) { Int($0[n]) }
        }
        guard n <= left else { return .framingLost("a definition message runs past the end of the FIT file's data") }
        guard try bytes.ensure(n) else { return .cut("the input ends inside a definition message (it is cut off)") }
        let architecture = bytes.peek(3) { $0[2] }
        guard architecture <= 1 else {
            return .framingLost("a definition message with architecture \(architecture) (0 little-endian or 1 big-endian): the rest of this FIT file cannot be read")
        }
        let local = Int(h & 0x0F)
        let same = bytes.peek(n) { p in definitions[local] != nil && definitionBytes[local].elementsEqual(p) }
        if !same {
            definitions[local] = bytes.peek(n) { p in
                definitionBytes[local].removeAll(keepingCapacity: true)
                definitionBytes[local].append(contentsOf: p)
                let bigEndian = architecture == 1
                let global = bigEndian ? UInt16(p[3]) << 8 | UInt16(p[4]) : UInt16(p[3]) | UInt16(p[4]) << 8
                let fieldBytes = UnsafeRawBufferPointer(rebasing: p[6..<(6 + 3 * fields)])
                let devBytes = developer ? UnsafeRawBufferPointer(rebasing: p[(7 + 3 * fields)..<n]) : nil
                return FITDefinition(global: global, bigEndian: bigEndian, fields: fieldBytes, developer: devBytes)
            }
        }
        bytes.consume(n, crc: &crc)
        return .read(n, data: false)
    }
}
