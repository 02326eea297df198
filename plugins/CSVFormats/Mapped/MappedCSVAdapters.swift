import Foundation
import HealthPipeCore
import ZipReading

/// CSV formats described by YAML adapter files instead of Swift code (see `MappedSpec` for the
/// file format and plugins/adapters/ for examples). Each adapter becomes a source component
/// named after it; its pipeline options are the common CSV ones (path, timezone, subject,
/// ambiguous_time, nonexistent_time).
public enum MappedCSVAdapters {
    /// The score an adapter's detection gives a file it matches: below every compiled-in format's.
    public static var detectionScore: Int { MappedDetector.matchScore }

    /// Every `*.yaml` / `*.yml` file in `directory`, sorted by file name. Broken files are all
    /// reported together (one `ConfigError` per problem, file:line:column); two files defining
    /// the same name, or a name in `reservedNames` (the built-in components), are errors too.
    public static func load(directory: String, reservedNames: Set<String> = []) throws -> [ComponentDescriptor] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ConfigError(file: directory, line: 0, column: 0, message: "cannot read the adapter folder: \(error.localizedDescription)")
        }
        let files = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        var out: [ComponentDescriptor] = [], errors: [ConfigError] = []
        var seen: [String: String] = [:]
        for file in files {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(file).path
            do {
                let document = try ConfigDocument.load(path: path)
                let c = try component(document: document, reservedNames: reservedNames)
                if let first = seen[c.name] {
                    errors.append(document.error(at: document.root.mapping?.first { $0.key.string == "name" }?.value,
                                                 "adapter name '\(c.name)' is already defined by \(first)"))
                    continue
                }
                seen[c.name] = file
                out.append(c)
            } catch let e as ConfigError {
                errors.append(e)
            } catch let e as ConfigErrors {
                errors += e.errors
            }
        }
        try ConfigErrors.throwIfAny(errors)
        return out
    }

    /// One adapter file as a source component (family `adapters/<file name>`).
    public static func component(document: ConfigDocument, reservedNames: Set<String> = []) throws -> ComponentDescriptor {
        let family = "adapters/" + URL(fileURLWithPath: document.file).lastPathComponent
        let adapter = try MappedSpecCompiler.compile(document: document, family: family, reservedNames: reservedNames)
        return descriptor(adapter)
    }

    static func descriptor(_ adapter: MappedAdapter) -> ComponentDescriptor {
        let detector = MappedDetector(adapter: adapter)
        return ComponentDescriptor(
            name: adapter.name, role: .source, family: adapter.family, summary: adapter.summary,
            options: CSVCommonOptions.docs, produces: adapter.produces,
            // A workbook (zip) is judged by its first sheet's rows, a text file by its first bytes.
            detect: { ZipArchive.hasMagic($0.prefix) ? MappedXLSXDetection.score(detector, $0) : detector.score($0) },
            // The first spelling of each required header cell: "unknown format" names the nearest adapter by them.
            signature: adapter.headerCells.prefix(8).compactMap { ColumnNames.alternatives($0).first.map(String.init) },
            build: { b in
                var options = try CSVCommonOptions.read(b)
                // The user's zone (stage option or run setting) wins over the adapter's default.
                if options.zone == nil { options.zone = adapter.timezone }
                return MappedSource(adapter: adapter, options: options, workbook: isWorkbook(options.path))
            })
    }

    /// The file starts with a zip signature: an Excel workbook, read by `MappedSource.runWorkbook`.
    static func isWorkbook(_ path: String) -> Bool {
        // Never a pipe or FIFO: reading its first bytes here would take them from the source.
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
              let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return ZipArchive.hasMagic(h.readData(ofLength: 4))
    }
}
