import Foundation
import HealthPipeCore

/// Leaves out, before anything is sent, the staged readings stored already with the same key and
/// compared columns — a re-import's rows, which the upsert would leave unchanged. Instead of a
/// primary-key probe per staged row on the server (≈ 3.5 µs each, the floor of the staged way), the
/// stored rows of the batch's key ranges — per series its earliest to latest start — are read back in one `COPY … TO STDOUT`, a range scan of the
/// primary key, and compared here as COPY text of those columns: a staged row whose text is among
/// them is left out.
///
/// Only identical text counts as stored: both sides write COPY text of the same columns in the
/// same order, PostgreSQL's text of a value parses back to that value, and its escapes are a superset
/// of `CopyBuffer`'s, so equal text means equal values. Anything that merely looks different (a float
/// printed another way) stays staged and goes the upsert's way, which decides as before — the filter
/// can only spare work, never change a result.
struct StoredRowFilter {
    /// Per series (the primary key's leading column), its staged start times.
    private var spans = SeriesSpans()

    var isEmpty: Bool { spans.isEmpty }

    @inline(__always)
    mutating func note(series: Int64, start: Int64) { spans.note(series: series, start: start) }

    mutating func reset() { spans.reset() }

    /// What reading back found: the staged rows less those stored exactly so, how many were left out,
    /// and how many stored rows the key ranges hold.
    struct Unstored {
        var rows: [UInt8]
        var left: Int
        var stored: Int
        var kept: Int
        /// Whether the rows kept still mostly meet stored keys — rows stored from another file (another
        /// import id, which the upsert does not compare) — so the upsert's probe pays again.
        var keptMostlyStored: Bool { (stored - left) * 2 > kept }
    }

    /// The staged `rows` (COPY text) less those stored exactly so; nil when the key ranges hold more
    /// than twice as many stored rows as are staged (then reading them back would cost more than the
    /// probes it spares).
    func unstored(_ rows: CopyBuffer, table: PGTable, _ db: PGConnection) throws -> Unstored? {
        let limit = 2 * rows.rows + 1_000
        guard let ranges = spans.values(as: "g") else { return nil }
        // The key and the compared columns, in table order: a row stored with these equal is one the
        // upsert would leave unchanged (the import id, line, metadata and device are not compared).
        let compared = Set(table.key + table.changedWhen)
        let fields = table.columns.indices.filter { compared.contains(table.columns[$0]) }
        let columns = fields.map { "t." + PGConnection.quote(table.columns[$0]) }.joined(separator: ", ")
        let stored = try db.copyOut("""
            COPY (SELECT \(columns) FROM \(ranges)
                  JOIN \(table.name) t ON t.series = g.series AND t.start BETWEEN g.lo AND g.hi LIMIT \(limit + 1)) TO STDOUT
            """)
        let set = CopyLineSet(stored)
        guard set.count <= limit else { return nil }
        var kept: [UInt8] = [], projected: [UInt8] = []
        kept.reserveCapacity(rows.bytes.count)
        projected.reserveCapacity(512)
        var left = 0
        rows.bytes.withUnsafeBufferPointer { b in
            var start = 0
            while start < b.count {
                // The line's fields `fields`, tab-separated, as the server wrote them.
                projected.removeAll(keepingCapacity: true)
                var end = start, field = 0, fieldStart = start, next = 0
                while true {
                    let c = b[end]
                    if c == 0x09 || c == 0x0A {
                        if next < fields.count, fields[next] == field {
                            if next > 0 { projected.append(0x09) }
                            projected.append(contentsOf: UnsafeBufferPointer(rebasing: b[fieldStart..<end]))
                            next += 1
                        }
                        field += 1
                        fieldStart = end + 1
                        if c == 0x0A { break }
                    }
                    end += 1
                }
                let found = next == fields.count && projected.withUnsafeBufferPointer { set.contains($0) }
                if found { left += 1 } else { kept.append(contentsOf: UnsafeBufferPointer(rebasing: b[start...end])) }
                start = end + 1
            }
        }
        return Unstored(rows: kept, left: left, stored: set.count, kept: rows.rows - left)
    }
}

/// The lines of COPY text (each ending in a newline), as a set found by their bytes: an open-addressing
/// table of line numbers, each candidate compared byte for byte (a hash alone could mistake a changed row
/// for a stored one).
struct CopyLineSet {
    private let bytes: [UInt8]
    private let bounds: [(start: Int, end: Int)]
    private let slots: [Int32]
    private let hashes: [UInt64]
    private let mask: Int

    var count: Int { bounds.count }

    init(_ bytes: [UInt8]) {
        var bounds: [(start: Int, end: Int)] = [], hashes: [UInt64] = []
        var size = 16
        let mask = bytes.withUnsafeBufferPointer { b -> Int in
            var start = 0
            while start < b.count {
                var end = start
                while end < b.count, b[end] != 0x0A { end += 1 }
                bounds.append((start, end))
                start = end + 1
            }
            while size < 2 * bounds.count { size <<= 1 }
            return size - 1
        }
        var slots = [Int32](repeating: -1, count: size)
        hashes.reserveCapacity(bounds.count)
        bytes.withUnsafeBufferPointer { b in
            for (i, r) in bounds.enumerated() {
                let h = Self.hash(UnsafeBufferPointer(rebasing: b[r.start..<r.end]))
                hashes.append(h)
                var slot = Int(truncatingIfNeeded: h) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(i)
            }
        }
        self.bytes = bytes
        self.bounds = bounds
        self.hashes = hashes
        self.slots = slots
        self.mask = mask
    }

    func contains(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let h = Self.hash(line)
        var slot = Int(truncatingIfNeeded: h) & mask
        return bytes.withUnsafeBufferPointer { b in
            while slots[slot] >= 0 {
                let i = Int(slots[slot])
                if hashes[i] == h {
                    let r = bounds[i]
                    if r.end - r.start == line.count,
                       line.isEmpty || memcmp(b.baseAddress! + r.start, line.baseAddress!, line.count) == 0 { return true }
                }
                slot = (slot + 1) & mask
            }
            return false
        }
    }

    /// FNV-1a over 8-byte words, then the tail bytes, finished by a multiply-shift mix.
    @inline(__always)
    static func hash(_ line: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let raw = UnsafeRawBufferPointer(line)
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x1000_0000_01b3
            h ^= h >> 29
            i += 8
        }
        while i < raw.count { h = (h ^ UInt64(raw[i])) &* 0x1000_0000_01b3; i += 1 }
        h ^= h >> 32
        h = h &* 0xd6e8_feb8_6659_fd93
        return h ^ (h >> 32)
    }
}
