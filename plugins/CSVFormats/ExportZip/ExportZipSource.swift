import Foundation
import HealthPipeCore
import ZipReading

/// A zip of exports (Glooko's and YourLoops' downloads: one CSV per kind of data): every file in it
/// is detected by content and read by its own format's source, as if it were a file of the import,
/// named `export.zip/cgm_data_1.csv` in the imports table and the quarantine. Files no format reads
/// are listed in a warning, never silently passed over.
final class ExportZipSource: Source, InputDescribing {
    static let format = "export-zip"
    /// A file in the zip is read into memory whole (sources read it as a stream): larger ones are refused.
    static let maxEntryBytes: UInt64 = 256 << 20

    let path: String
    private let builder: ComponentBuilder
    var inputPaths: [String] { [path] }

    init(path: String, builder: ComponentBuilder) {
        self.path = path
        self.builder = builder
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        guard let registry = builder.registry else { throw RegistryError(message: "\(builder.stageName): built without a registry") }
        let archive = try Self.open(path)
        var read = 0
        var unread: [String] = []
        var broken: [String] = []
        for entry in Self.files(archive) {
            let inner = path + "/" + entry.path
            let bytes: [UInt8]
            do { bytes = try archive.contents(of: entry, limit: Self.maxEntryBytes) } catch {
                broken.append(entry.path)
                try context.reject(RowError(file: inner, line: 0, reason: "cannot be unpacked (\(error)): not read", raw: ""))
                continue
            }
            let sniff = FileSniff(path: inner, prefix: Array(bytes.prefix(FileSniff.defaultLimit)))
            guard let format = registry.detectFormat(of: sniff), format.role == .source, format.name != Self.format,
                  !Self.containers.contains(format.name) else {
                unread.append(entry.path)
                continue
            }
            ByteInput.provide(bytes, as: inner)
            try builder.delegate(to: format, path: inner).run(context: context, emit: emit)
            read += 1
        }
        if read == 0 {
            let names = (broken.isEmpty ? "" : "\(broken.count) could not be unpacked (in the quarantine): " + broken.prefix(4).joined(separator: ", "))
                + (unread.isEmpty ? "" : (broken.isEmpty ? "" : "; ") + "no format reads " + unread.prefix(8).joined(separator: ", "))
            throw InputError(file: path, reason: "no file in the zip is an export HealthPipe reads (\(names))")
        }
        if !unread.isEmpty {
            context.warn("\(path): \(unread.count) file(s) in the zip are no format HealthPipe reads and were not imported: "
                         + unread.prefix(12).joined(separator: ", ") + (unread.count > 12 ? ", …" : "")
                         + " (`healthpipe adapters draft` writes an adapter for one, after unzipping it)")
        }
    }

    /// Formats that are themselves containers opened by path (never delegated a file from memory).
    static let containers: Set<String> = ["apple-health", "dexcom-clarity-xlsx"]

    static func open(_ path: String) throws -> ZipArchive {
        do { return try ZipArchive(path: path) } catch {
            throw InputError(file: path, reason: "not a readable zip (\(error))")
        }
    }

    /// The zip's files in name order, without folders, macOS resource forks and hidden files.
    static func files(_ archive: ZipArchive) -> [ZipEntry] {
        archive.entries.filter { e in
            e.isFile && !e.path.hasPrefix("__MACOSX/") && !e.name.hasPrefix(".")
        }.sorted { $0.path < $1.path }
    }

    /// Content detection: a zip holding at least one CSV or JSON file and no XML (an Excel workbook
    /// and Apple's export.zip are zips of XML with readers of their own). Above the text formats,
    /// whose header words can show through a zip whose files are stored uncompressed.
    static func detectScore(_ sniff: FileSniff) -> Int {
        guard sniff.isRegularFile, sniff.prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]),
              let archive = try? Self.open(sniff.path) else { return 0 }
        var data = false
        for e in archive.entries {
            let name = e.path.lowercased()
            if name.hasSuffix(".xml") { return 0 }
            if name.hasSuffix(".csv") || name.hasSuffix(".json") || name.hasSuffix(".tsv") { data = true }
        }
        return data ? 97 : 0
    }
}

public let exportZipComponent = ComponentDescriptor(
    name: ExportZipSource.format, role: .source, family: "CSVFormats",
    summary: """
        A zip of exports (Glooko, Diabeloop YourLoops … downloads: one CSV per kind of data): each file in it is detected \
        by content and read by its format's source, named zip/file in the imports table and the quarantine; files no \
        format reads are listed in a warning.
        """,
    options: [
        OptionDoc("path", "path", required: true, "the zip"),
        OptionDoc("timezone", "IANA name or offset", default: "the run's", "zone for naive local timestamps of the files inside"),
        OptionDoc("subject", "text", default: "the run's", "whose data this is"),
    ],
    produces: .all,
    detect: { ExportZipSource.detectScore($0) },
    findsFormatsAtRun: true,
    build: { b in
        try b.checkHandedOnOptions()
        return ExportZipSource(path: b.path(try b.required("path")), builder: b)
    })
