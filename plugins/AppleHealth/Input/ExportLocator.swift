import Foundation
import HealthPipeCore
import ZIPFoundation

/// Finds the Health XML: the file itself, or the entry of a zip whose first bytes open a
/// `HealthData` document. Entry and zip names are localized (exportar.xml, eksport.xml…), so
/// names are never trusted; `export_cda.xml` (HL7 CDA, not HealthData) is never chosen.
enum ExportLocator {
    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// True when the start of an XML document names the HealthData root (before or after a DOCTYPE).
    static func isHealthXML(_ prefix: some Collection<UInt8>) -> Bool {
        let text = String(decoding: prefix.prefix(64 * 1024), as: UTF8.self)
        return text.contains("<!DOCTYPE HealthData") || text.contains("<HealthData")
    }

    /// Content detection for `healthpipe import`: 95 for a Health export, 0 otherwise. A zip arriving
    /// through a pipe cannot be looked into without reading it whole: it is taken as an export (the
    /// source says so if it is not).
    static func detect(_ sniff: FileSniff) -> Int {
        if sniff.prefix.starts(with: zipMagic) {
            guard sniff.isRegularFile else { return 60 }
            return (try? healthEntry(in: Archive(url: URL(fileURLWithPath: sniff.path), accessMode: .read))) != nil ? 95 : 0
        }
        return isHealthXML(Array(sniff.text.utf8)) ? 95 : 0  // text: UTF-16 with a BOM is decoded
    }

    /// Why a zip no format claims cannot be read: truncated, corrupt, or without a Health export.
    static func diagnose(_ sniff: FileSniff) -> String? {
        guard sniff.prefix.starts(with: zipMagic), sniff.isRegularFile else { return nil }
        do {
            let archive = try Archive(url: URL(fileURLWithPath: sniff.path), accessMode: .read)
            if try healthEntry(in: archive) != nil { return nil }
            let names = archive.prefix(5).map(\.path).joined(separator: ", ")
            return "a zip archive without an Apple Health export in it (entries: \(EchoText.cap(names, to: 120)))"
        } catch {
            return ZipProblem.describe(error, path: sniff.path)
        }
    }

    /// The entry holding the HealthData XML, or nil.
    static func healthEntry(in archive: Archive) throws -> Entry? {
        for entry in archive where entry.type == .file {
            let name = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            if name == "export_cda.xml" || !name.lowercased().hasSuffix(".xml") { continue }
            if isHealthXML(try firstBytes(of: entry, in: archive)) { return entry }
        }
        return nil
    }

    /// Up to 16 KiB from the start of an entry (extraction stops after the first chunk).
    static func firstBytes(of entry: Entry, in archive: Archive) throws -> [UInt8] {
        struct Enough: Error {}
        var bytes: [UInt8] = []
        do {
            _ = try archive.extract(entry, bufferSize: 16 * 1024, skipCRC32: true) { data in
                bytes.append(contentsOf: data)
                if bytes.count >= 1024 { throw Enough() }
            }
        } catch is Enough {}
        return bytes
    }
}
