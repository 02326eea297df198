import HealthPipeCore
import Hummingbird

/// The text formats of `/api/v1/entries` (cgm-remote-monitor's `formatWithSeparator`, chosen by the
/// extension `.csv`, `.tsv` or `.txt`): one line per entry, newest first, lines joined by CRLF with
/// none after the last and no header; the fields `dateString`, `date`, `sgv`, `direction`, `device`,
/// each as JSON writes it (texts quoted) and empty when the entry has none (a meter reading's `sgv`,
/// a reading without a direction). No entries: an empty body.
enum NightscoutEntryText: String, CaseIterable {
    case json, csv, tsv, txt

    /// The path's extension (`entries.csv`); JSON also answers without one.
    var suffix: String { "." + rawValue }

    var contentType: String {
        switch self {
        case .json: return "application/json; charset=utf-8"
        case .csv: return "text/csv; charset=utf-8"
        case .tsv: return "text/tab-separated-values; charset=utf-8"
        case .txt: return "text/plain; charset=utf-8"
        }
    }

    func body(_ entries: some Sequence<NightscoutEntry>) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        if self == .json {
            w.beginArray()
            for e in entries { e.write(&w) }
            w.endArray()
            return w.bytes
        }
        let separator = self == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")
        var out: [UInt8] = []
        for e in entries {
            if !out.isEmpty { out += [0x0D, 0x0A] }
            w.reset()
            w.string(NightscoutTime.iso(e.row.start))
            out += w.bytes
            out.append(separator)
            out += String(e.row.start * 1000).utf8
            out.append(separator)
            if e.type == "sgv" { out += String(e.value).utf8 }
            out.append(separator)
            if let direction = e.direction {
                w.reset()
                w.string(direction)
                out += w.bytes
            }
            out.append(separator)
            w.reset()
            w.string(e.device)
            out += w.bytes
        }
        return out
    }

    func response(_ entries: some Sequence<NightscoutEntry>) -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: body(entries))))
    }
}
