import ArgumentParser
import CSVFormats
import Foundation
import HealthPipeCore

/// `healthpipe adapters draft FILE`: a YAML adapter for a CSV no format reads, ready to check and use.
struct AdaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters", abstract: "Work with declarative CSV adapters (docs/adapters.md).",
        subcommands: [AdaptersDraftCommand.self])
}

struct AdaptersDraftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draft",
        abstract: "Draft a YAML adapter from a CSV's header and values.",
        discussion: """
        Places the timestamp, glucose (mg/dL or mmol/L), carbohydrate, insulin and note columns by their
        header words (many languages) and checks them against the file's values; the draft is checked by
        loading it and detecting FILE with it. Save it in a folder and import with --plugin-path FOLDER.
        """)

    @Argument(help: "The CSV file to draft an adapter for.") var file: String
    @Option(name: .shortAndLong, help: "Write the adapter here (default: standard output).") var output: String?
    @Option(name: .long, help: "The adapter's name (default: from the file name).") var name: String?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let sniff: FileSniff
        do { sniff = try FileSniff.read(path: file, limit: 256 * 1024) } catch { throw configFailure(error) }
        let registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        if let known = registry.detectFormat(of: sniff) {
            printError("\(file) is already read as \(known.name); no adapter needed (`healthpipe import \(file)`).")
            throw ExitCode(2)
        }
        var adapterName = name ?? AdapterDraft.name(fromFile: file)
        if name == nil, registry.component(named: adapterName) != nil { adapterName += "-draft" }
        let draft: AdapterDraft
        do { draft = try AdapterDraft(sniff: sniff, name: adapterName) } catch { throw configFailure(error) }
        // The draft must load as an adapter and claim the file it was drafted from.
        let component: ComponentDescriptor
        do {
            let document = try ConfigDocument(file: output ?? "\(adapterName).yaml", text: draft.yaml)
            component = try MappedCSVAdapters.component(document: document, reservedNames: Set(registry.components.keys))
        } catch {
            printError("the draft does not load as an adapter (\(error)); here it is to fix by hand:\n\(draft.yaml)")
            throw ExitCode(1)
        }
        if (component.detect?(sniff) ?? 0) == 0 {
            printError("note: the draft does not detect \(file) by itself yet (check the header and timestamp lines)")
        }
        for line in draft.summary { printError("  \(line)") }
        if let output {
            do { try AtomicFile.write(Array(draft.yaml.utf8), to: output, what: "adapter") } catch { throw configFailure(error) }
            printError("wrote \(output); import with: healthpipe import \(file) --plugin-path \(URL(fileURLWithPath: output).deletingLastPathComponent().path)")
        } else {
            print(draft.yaml, terminator: "")
        }
    }
}
