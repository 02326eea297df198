/// A record the external sorter can spill: plain bits (no references), with its sort order.
public protocol SortableRecord: BitwiseCopyable {
    static func precedes(_ a: Self, _ b: Self) -> Bool
}

/// Sorts any number of fixed-size records in bounded memory: records collect in a buffer of
/// `runCapacity`; a full buffer is sorted (unless it arrived in order) and written to a scratch file
/// as a run; `drain` merges the runs. Memory is one buffer plus a small read window per run,
/// however many records come. Equal records keep their arrival order (the sort is stable).
public final class ExternalSorter<Record: SortableRecord> {
    public let runCapacity: Int
    let windowRecords: Int
    // A sorter belongs to one stage's thread: the runtime's per-access exclusivity checks on these
    // (every append) would cost more than the append itself.
    @exclusivity(unchecked) private var buffer: [Record] = []
    @exclusivity(unchecked) private var bufferInOrder = true
    private var file: ScratchFile?
    /// Runs written so far, as record ranges of the scratch file.
    private var runs: [Range<Int64>] = []
    private let purpose: String
    @exclusivity(unchecked) public private(set) var count: Int64 = 0

    public init(purpose: String, runCapacity: Int = 1 << 17, windowRecords: Int = 256) {
        self.purpose = purpose
        self.runCapacity = max(2, runCapacity)
        self.windowRecords = max(1, windowRecords)
    }

    /// Runs spilled to the scratch file so far.
    public var spilledRuns: Int { runs.count }

    @inline(__always)
    public func append(_ r: Record) throws {
        if bufferInOrder, let last = buffer.last, Record.precedes(r, last) { bufferInOrder = false }
        if buffer.capacity == 0 {
            // The whole run at once: growing by doubling leaves each outgrown copy resident in the
            // allocator (glibc keeps freed blocks of this size in the thread's arena).
            buffer.reserveCapacity(runCapacity)
        }
        buffer.append(r)
        count += 1
        if buffer.count >= runCapacity { try spill() }
    }

    /// The buffer's indices in order, stable: equal records keep their arrival order.
    private func stableOrder() -> [Int] {
        var order = Array(buffer.indices)
        buffer.withUnsafeBufferPointer { b in
            order.sort { Record.precedes(b[$0], b[$1]) || (!Record.precedes(b[$1], b[$0]) && $0 < $1) }
        }
        return order
    }

    private func sortBuffer() {
        guard !bufferInOrder else { return }
        buffer = stableOrder().map { buffer[$0] }
        bufferInOrder = true
    }

    private func spill() throws {
        guard !buffer.isEmpty else { return }
        let f = try file ?? ScratchFile(purpose: purpose)
        file = f
        let stride = Int64(MemoryLayout<Record>.stride)
        let at: Int64
        if bufferInOrder {
            at = try buffer.withUnsafeBytes { try f.append($0) }
        } else {
            // Written in order through a small staging buffer: never a second copy of the run in memory.
            var staging: [Record] = []
            staging.reserveCapacity(Self.stagingRecords)
            at = f.size
            for i in stableOrder() {
                staging.append(buffer[i])
                if staging.count == Self.stagingRecords {
                    _ = try staging.withUnsafeBytes { try f.append($0) }
                    staging.removeAll(keepingCapacity: true)
                }
            }
            if !staging.isEmpty { _ = try staging.withUnsafeBytes { try f.append($0) } }
        }
        runs.append((at / stride)..<((at / stride) + Int64(buffer.count)))
        buffer.removeAll(keepingCapacity: true)
        bufferInOrder = true
    }

    private static var stagingRecords: Int { 1024 }

    /// Every record once, in order (stable across runs: earlier runs first among equals); empties the sorter.
    public func drain(_ body: (Record) throws -> Void) throws {
        var records = try sorted()
        while let r = try records.next() { try body(r) }
    }

    /// The records in order, one at a time; empties the sorter.
    public func sorted() throws -> SortedRecords<Record> {
        defer { reset() }
        guard let file else {
            sortBuffer()
            return SortedRecords(memory: buffer)
        }
        try spill()
        var readers = try runs.map { try RunReader<Record>(file: file, range: $0, window: windowRecords) }
        for i in readers.indices { try readers[i].fill() }
        // Runs usually hold successive stretches (time-ordered input): read them one after another.
        if zip(readers, readers.dropFirst()).allSatisfy({ pair in pair.0.lastRecord.map { !pair.1.firstRecordPrecedes($0) } ?? true }) {
            return SortedRecords(sequential: readers)
        }
        var heap = RunHeap<Record>()
        for i in readers.indices { if let r = readers[i].peek { heap.push(r, run: i) } }
        return SortedRecords(merging: readers, heap: heap)
    }

    private func reset() {
        buffer = []
        bufferInOrder = true
        runs = []
        file = nil
        count = 0
    }
}

/// A sorter's records in order, pulled one at a time (so two sorted streams can be merged).
public struct SortedRecords<Record: SortableRecord> {
    private var memory: [Record] = []
    private var position = 0
    private var readers: [RunReader<Record>] = []
    private var current = 0
    private var heap: RunHeap<Record>?

    init(memory: [Record]) { self.memory = memory }
    init(sequential readers: [RunReader<Record>]) { self.readers = readers }
    init(merging readers: [RunReader<Record>], heap: RunHeap<Record>) {
        self.readers = readers
        self.heap = heap
    }

    public mutating func next() throws -> Record? {
        if readers.isEmpty {
            guard position < memory.count else { return nil }
            position += 1
            return memory[position - 1]
        }
        guard heap != nil else {
            while current < readers.count {
                if let r = try readers[current].advance() { return r }
                current += 1
            }
            return nil
        }
        guard let (r, i) = heap!.pop() else { return nil }
        _ = try readers[i].advance()
        if let n = readers[i].peek { heap!.push(n, run: i) }
        return r
    }
}

/// A window onto one spilled run.
struct RunReader<Record: SortableRecord> {
    let file: ScratchFile
    var nextIndex: Int64
    let end: Int64
    let window: Int
    let lastRecord: Record?
    private var items: [Record] = []
    private var position = 0

    init(file: ScratchFile, range: Range<Int64>, window: Int) throws {
        self.file = file
        nextIndex = range.lowerBound
        end = range.upperBound
        self.window = window
        lastRecord = range.isEmpty ? nil : try Self.load(file, at: range.upperBound - 1, count: 1).first
    }

    var peek: Record? { position < items.count ? items[position] : nil }

    func firstRecordPrecedes(_ other: Record) -> Bool { peek.map { Record.precedes($0, other) } ?? false }

    /// Returns the current record and moves on, refilling the window from the file.
    mutating func advance() throws -> Record? {
        guard let r = peek else { return nil }
        position += 1
        if position == items.count { try fill() }
        return r
    }

    mutating func fill() throws {
        let n = Int(min(Int64(window), end - nextIndex))
        guard n > 0 else { items = []; position = 0; return }
        items = try Self.load(file, at: nextIndex, count: n)
        nextIndex += Int64(n)
        position = 0
    }

    static func load(_ file: ScratchFile, at index: Int64, count n: Int) throws -> [Record] {
        let stride = MemoryLayout<Record>.stride
        var out = [Record]()
        out.reserveCapacity(n)
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: n * stride, alignment: MemoryLayout<Record>.alignment)
        defer { bytes.deallocate() }
        try file.read(at: index * Int64(stride), into: bytes)
        for i in 0..<n { out.append(bytes.load(fromByteOffset: i * stride, as: Record.self)) }
        return out
    }
}

/// A binary min-heap of run heads; ties go to the earlier run, keeping the merge stable.
struct RunHeap<Record: SortableRecord> {
    private var items: [(record: Record, run: Int)] = []

    private static func before(_ a: (record: Record, run: Int), _ b: (record: Record, run: Int)) -> Bool {
        Record.precedes(a.record, b.record) || (!Record.precedes(b.record, a.record) && a.run < b.run)
    }

    mutating func push(_ r: Record, run: Int) {
        items.append((r, run))
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard Self.before(items[i], items[p]) else { break }
            items.swapAt(i, p)
            i = p
        }
    }

    mutating func pop() -> (Record, Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && Self.before(items[l], items[m]) { m = l }
                if r < items.count && Self.before(items[r], items[m]) { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return (top.record, top.run)
    }
}
