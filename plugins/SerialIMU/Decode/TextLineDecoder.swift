import HealthPipeCore

/// Decodes text streams (IMU_Capture CSV, TSV, `t_ms,…`, Klipper): splits lines on LF (CR
/// ignored), recognises header lines (again after an Arduino reset), blank gesture separators,
/// and quarantines lines that are too long, hold control bytes, or have the wrong field count.
public struct TextLineDecoder: StreamDecoder {
    private var layout: StreamLayout
    private var columns: [StreamLayout.Column]
    private var headerAllowed: Bool
    private var headerRequired: Bool
    private var line: [UInt8] = []
    private var overflow = false
    public private(set) var lineNumber: Int64 = 0
    private var sawHeader = false

    public init(layout: StreamLayout) {
        self.layout = layout
        self.columns = layout.columns
        self.headerAllowed = layout.header != false
        self.headerRequired = layout.header == true
        line.reserveCapacity(layout.maxLineBytes + 1)
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ out: (DecodeEvent) throws -> Void) rethrows {
        for b in bytes {
            if b == 0x0A {
                lineNumber += 1
                if overflow {
                    try out(.bad(position: lineNumber, reason: "line longer than \(layout.maxLineBytes) bytes (garbage or a lost newline)",
                                 raw: String(decoding: line.prefix(120), as: UTF8.self)))
                } else {
                    try decodeLine(out)
                }
                line.removeAll(keepingCapacity: true)
                overflow = false
            } else if b != 0x0D {
                if line.count < layout.maxLineBytes { line.append(b) } else { overflow = true }
            }
        }
    }

    public mutating func endOfStream(_ out: (DecodeEvent) throws -> Void) rethrows {
        if !line.isEmpty {
            lineNumber += 1
            try out(.bad(position: lineNumber, reason: "partial line at the end of the stream",
                         raw: String(decoding: line.prefix(120), as: UTF8.self)))
        }
        line.removeAll(keepingCapacity: true)
        overflow = false
    }

    private mutating func decodeLine(_ out: (DecodeEvent) throws -> Void) rethrows {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { try out(.gestureBreak); return }
        if let bad = line.first(where: { $0 < 0x20 && $0 != 0x09 || $0 >= 0x7F }) {
            try out(.bad(position: lineNumber, reason: "control or non-ASCII byte 0x\(String(bad, radix: 16)) in a line",
                         raw: String(decoding: line.prefix(120), as: UTF8.self)))
            return
        }
        let separator: UInt8 = line.contains(0x09) ? 0x09 : (line.contains(UInt8(ascii: ",")) ? UInt8(ascii: ",") : UInt8(ascii: ";"))
        if looksLikeHeader(), headerAllowed, adoptHeader(separator: separator) {
            sawHeader = true
            return
        }
        if headerRequired && !sawHeader {
            try out(.bad(position: lineNumber, reason: "expected a header line (header: true)", raw: String(decoding: line, as: UTF8.self)))
            return
        }
        let result: Result<RawReading, LineProblem> = line.withUnsafeBytes { parseFields($0, separator: separator) }
        switch result {
        case .success(let r): try out(.reading(r))
        case .failure(let p): try out(.bad(position: lineNumber, reason: p.reason, raw: String(decoding: line, as: UTF8.self)))
        }
    }

    private func looksLikeHeader() -> Bool {
        line.contains { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") && ($0 | 0x20) != UInt8(ascii: "e") }
            || line.first == UInt8(ascii: "#")
    }

    /// Takes the header's column names when every cell is known; a repeated header is skipped.
    private mutating func adoptHeader(separator: UInt8) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        let cells = text.split(separator: Character(UnicodeScalar(separator)), omittingEmptySubsequences: false)
        var mapped: [StreamLayout.Column] = []
        for c in cells {
            guard let col = StreamLayout.column(forHeader: c) else { return false }
            mapped.append(col)
        }
        guard [.ax, .ay, .az].allSatisfy(mapped.contains) else { return false }
        columns = mapped
        return true
    }

    private struct LineProblem: Error { var reason: String }

    /// A field's bytes without the spaces around them (`1, 2, 3` as a device prints it).
    private static func withoutSpaces(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
        var i = start, e = end
        while i < e, p[i] == 0x20 { i += 1 }
        while e > i, p[e - 1] == 0x20 { e -= 1 }
        return UnsafeRawBufferPointer(rebasing: p[i..<e])
    }

    private func parseFields(_ p: UnsafeRawBufferPointer, separator: UInt8) -> Result<RawReading, LineProblem> {
        var a = SIMD3<Float>(repeating: .nan)
        var g = SIMD3<Float>(repeating: .nan)
        var hasGyro = false
        var time: Double?
        var field = 0, start = 0
        let n = p.count
        var i = 0
        while i <= n {
            if i == n || p[i] == separator {
                guard field < columns.count else {
                    return .failure(LineProblem(reason: "\(field + 1)+ fields where \(columns.count) are expected"))
                }
                let col = columns[field]
                if col != .skip {
                    guard let v = DecimalText.double(Self.withoutSpaces(p, start, i)) else {
                        let cell = String(decoding: UnsafeRawBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
                        return .failure(LineProblem(reason: "field \(field + 1) (\(col.rawValue)) is not a number: '\(cell)'"))
                    }
                    switch col {
                    case .ax: a.x = Float(v) * layout.units.toG
                    case .ay: a.y = Float(v) * layout.units.toG
                    case .az: a.z = Float(v) * layout.units.toG
                    case .gx: g.x = Float(v); hasGyro = true
                    case .gy: g.y = Float(v); hasGyro = true
                    case .gz: g.z = Float(v); hasGyro = true
                    case .tMs: time = v
                    case .tS: time = v * 1000
                    case .skip: break
                    }
                }
                field += 1
                start = i + 1
            }
            i += 1
        }
        guard field == columns.count else {
            return .failure(LineProblem(reason: "\(field) fields where \(columns.count) are expected (partial line?)"))
        }
        let gyro: SIMD3<Float>? = hasGyro ? g : nil
        if let problem = ReadingCheck.problem(a, gyro, layout: layout) { return .failure(LineProblem(reason: problem)) }
        return .success(RawReading(accel: a, gyro: gyro, streamTimeMs: time, position: lineNumber))
    }
}
