import CSVFormats
import HealthPipeCore

/// The CSV row reader alone: the first byte picks the separator and the row size limits are
/// small, so line splitting, quote recovery and the limits are all reached by short inputs.
enum CSVReaderTarget {
    static func run(_ data: UnsafeRawBufferPointer) -> Int {
        guard let first = data.first else { return 0 }
        let separators: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
        let path = "/fuzz/reader.csv"
        ByteInput.provide(Array(data.dropFirst()), as: path)
        guard let input = try? ByteInput.open(path) else { return 0 }
        try? input.decodeUTF16IfMarked()
        var options = CSVRowReader.Options(delimiter: separators[Int(first) % separators.count])
        options.maxLineBytes = 256
        options.maxRowBytes = 512
        options.chunkBytes = 64
        let reader = CSVRowReader(input: input, options: options)
        var rows = 0, checksum = 0
        try? reader.forEachRow { row in
            rows += 1
            checksum &+= row.count &+ row.rawText.utf8.count &+ Int(row.line)
            for i in 0..<row.count { checksum &+= row.field(i).count }
            _ = row.isBlank
        }
        return checksum == Int.min ? 0 : rows
    }
}
