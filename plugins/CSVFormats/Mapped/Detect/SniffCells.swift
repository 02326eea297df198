/// Splits one line of a file's first bytes into cells, honouring double quotes (`""` inside
/// quotes is a quote). Detection only: the reader itself uses libcsv.
enum SniffCells {
    static func split(_ line: Substring, delimiter: UInt8) -> [String] {
        var cells: [String] = []
        var cell: [UInt8] = []
        var quoted = false
        var bytes = Array(line.utf8)
        if bytes.last == 0x0D { bytes.removeLast() }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == 0x22 {
                    if i + 1 < bytes.count, bytes[i + 1] == 0x22 { cell.append(0x22); i += 1 } else { quoted = false }
                } else { cell.append(b) }
            } else if b == 0x22 {
                quoted = true
            } else if b == delimiter {
                cells.append(String(decoding: cell, as: UTF8.self))
                cell.removeAll(keepingCapacity: true)
            } else {
                cell.append(b)
            }
            i += 1
        }
        cells.append(String(decoding: cell, as: UTF8.self))
        return cells
    }
}
