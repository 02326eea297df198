import Foundation

/// A folder given to `import` (an unpacked account export: Fitbit's `MyFitbitData`, a Takeout folder)
/// stands for every file under it, each detected by its content as a file given by itself would be.
/// As in a zip of exports (`export-zip`), a file in a folder that no format reads is named in one
/// warning instead of failing the import: such folders hold families HealthPipe does not read.
enum ImportFolders {
    struct Expanded {
        var files: [String] = []
        /// The files that came from a folder (as `files` shows them).
        var fromFolder: Set<String> = []
        /// Folders with no file in them (as given): nothing to import, said as such.
        var empty: [String] = []
    }

    /// `operands` in their order, each folder replaced by the regular files under it in path order
    /// (hidden files and folders left out); a path that is not a folder is kept as it is.
    static func expand(_ operands: [String], base: String) -> Expanded {
        var out = Expanded()
        let fm = FileManager.default
        for operand in operands {
            var isDir: ObjCBool = false
            let path = operand == "-" ? operand : URL(fileURLWithPath: operand, relativeTo: URL(fileURLWithPath: base)).path
            guard operand != "-", fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue,
                  let walker = fm.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isRegularFileKey],
                                             options: [.skipsHiddenFiles]) else {
                out.files.append(operand)
                continue
            }
            var found: [String] = []
            // Each file is named as the operand names its folder, followed by its path inside it.
            let rootLength = URL(fileURLWithPath: path).standardizedFileURL.path.count
            let named = operand.hasSuffix("/") ? String(operand.dropLast()) : operand
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                found.append(named + String(url.standardizedFileURL.path.dropFirst(rootLength)))
            }
            found.sort()
            if found.isEmpty { out.empty.append(operand) }
            out.files += found
            out.fromFolder.formUnion(found)
        }
        return out
    }

    /// The one warning for a folder's files no format reads.
    static func warning(unread: [String]) -> String {
        "warning: \(unread.count) file(s) in the folder(s) given are no format HealthPipe reads and were not imported: "
            + unread.prefix(12).joined(separator: ", ") + (unread.count > 12 ? ", …" : "")
    }
}
