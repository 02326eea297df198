import Foundation
import ZIPFoundation

/// Says what is wrong with a zip in words a user can act on: "truncated" when its end is missing (a
/// cut-off download or copy), "corrupt" when its structure or compressed data is damaged.
enum ZipProblem {
    static func describe(_ error: Error, path: String) -> String {
        if let e = error as? Archive.ArchiveError {
            switch e {
            case .missingEndOfCentralDirectoryRecord:
                return "the zip archive is truncated: its end (the central directory) is missing; an interrupted download or copy?"
            case .invalidCRC32:
                return "the zip archive is corrupt: an entry fails its CRC check"
            case .unreadableArchive:
                var st = stat()
                if stat(path, &st) == 0, st.st_size < 22 { return "the zip archive is truncated: \(st.st_size) bytes is too short for a zip" }
                return "the zip archive is corrupt or unreadable"
            default:
                return "the zip archive is corrupt (\(e))"
            }
        }
        let text = String(describing: error)
        if text.contains("corruptedData") || text.contains("invalidStream") {
            return "the zip archive is corrupt: its compressed data cannot be inflated (or it is truncated inside an entry)"
        }
        return "the zip archive is corrupt or unreadable (\(text))"
    }
}
