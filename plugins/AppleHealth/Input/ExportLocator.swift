import Foundation
import HealthPipeCore
import ZipReading

/// Finds the Health XML: the file itself, or the entry of a zip whose first bytes open a
/// `HealthData` document. Entry and zip names are localized (exportar.xml, eksport.xml…), so
/// names are never trusted; `export_cda.xml` (HL7 CDA, not HealthData) is never chosen.
enum ExportLocator {
    /// True when the start of an XML document names the HealthData root (before or after a DOCTYPE).
    static func isHealthXML(_ prefix: some Collection<UInt8>) -> Bool {
        let head = prefix.prefix(64 * 1024)
        return ByteSearch.contains(head, "<!DOCTYPE HealthData") || ByteSearch.contains(head, "<HealthData")
    }

    /// Content detection for `healthpipe import`: 95 for a Health export, 0 otherwise. A zip arriving
    /// through a pipe cannot be looked into without reading it whole: it is taken as an export (the
    /// source says so if it is not).
    static func detect(_ sniff: FileSniff) -> Int {
        if ZipArchive.hasMagic(sniff.prefix) {
            guard sniff.isRegularFile else { return 60 }
            return (try? healthEntry(in: ZipArchive(path: sniff.path))) != nil ? 95 : 0
        }
        return isHealthXML(sniff.text.utf8) ? 95 : 0  // text: UTF-16 with a BOM is decoded
    }

    /// Why a zip no format claims cannot be read: truncated, corrupt, or without a Health export.
    static func diagnose(_ sniff: FileSniff) -> String? {
        guard ZipArchive.hasMagic(sniff.prefix), sniff.isRegularFile else { return nil }
        do {
            let archive = try ZipArchive(path: sniff.path)
            if try healthEntry(in: archive) != nil { return nil }
            let names = archive.entries.prefix(5).map(\.path).joined(separator: ", ")
            return "a zip archive without an Apple Health export in it (entries: \(EchoText.cap(names, to: 120)))"
        } catch {
            return String(describing: error)
        }
    }

    /// The entry holding the HealthData XML, or nil.
    static func healthEntry(in archive: ZipArchive) throws -> ZipEntry? {
        for entry in archive.entries where entry.isFile {
            if entry.name == "export_cda.xml" || !entry.name.lowercased().hasSuffix(".xml") { continue }
            if isHealthXML(try archive.prefix(of: entry, limit: 16 << 10)) { return entry }
        }
        return nil
    }
}
