import Foundation
import HealthPipeCore
import Yams

/// A whole file source (format detection, row mapping, plausibility, quarantine writing) run on
/// the input as if it were a file. For targets with alternatives the first byte picks the component.
enum SourceTarget {
    /// `onDisk`: the source opens its path itself (a zip read at random, e.g. an .xlsx), so the bytes
    /// are written to a file in /dev/shm (memory) instead of handed over through `ByteInput`.
    static func make(_ name: String, component: String, alternatives: [String] = [], onDisk: Bool = false) -> FuzzTarget {
        let names = [component] + alternatives
        var target = FuzzTarget(name: name, summary: "the \(names.joined(separator: " / ")) source on one file") { data in
            var bytes = data[...]
            var chosen = component
            if !alternatives.isEmpty, let first = bytes.first {
                chosen = names[Int(first) % names.count]
                bytes = bytes.dropFirst()
            }
            return run(component: chosen, bytes: Array(bytes), onDisk: onDisk)
        }
        target.components = names
        return target
    }

    private static let quarantine = QuarantineWriter(path: "/dev/null")
    /// Each component reads its own path, so targets replayed side by side never take each other's bytes.
    private static func options(_ component: String, onDisk: Bool) -> (path: String, document: ConfigDocument) {
        let path = onDisk ? "\(scratchFolder)/fuzz-\(getpid())-\(component)" : "/fuzz/\(component)"
        // Only the options the component takes: its options are decoded strictly.
        let options = FuzzRegistry.shared.component(named: component)?.options ?? []
        let takesZone = options.contains { $0.name == "timezone" }
        // What a file's bytes cannot say (which series a Fitbit minute file is, told by its name): the documented example.
        let examples = options.filter { $0.example != nil && !["path", "timezone", "subject"].contains($0.name) }
            .map { "\($0.name): \($0.example!)\n" }.joined()
        let text = "path: \(path)\n" + (takesZone ? "timezone: Europe/London\n" : "") + examples
        return (path, try! ConfigDocument(file: "fuzz.yml", text: text, environment: [:]))
    }
    nonisolated(unsafe) private static var documents: [String: (path: String, document: ConfigDocument)] = [:]
    private static let lock = NSLock()

    private static let scratchFolder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()

    static func run(component: String, bytes: [UInt8], onDisk: Bool = false) -> Int {
        guard let descriptor = FuzzRegistry.shared.component(named: component) else { fatalError("no component \(component)") }
        let (path, document) = lock.withLock {
            if let known = documents[component] { return known }
            let made = options(component, onDisk: onDisk)
            documents[component] = made
            return made
        }
        let sniff = FileSniff(path: path, prefix: Array(bytes.prefix(64 << 10)))
        _ = descriptor.detect?(sniff)
        _ = try? FuzzRegistry.shared.identify(sniff)
        if onDisk {
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fatalError("cannot write \(path)") }
        } else {
            ByteInput.provide(bytes, as: path)
        }
        var builder = ComponentBuilder(stageName: "in", document: document, node: document.root,
                                       settings: RunSettings(timezone: "Europe/London", subject: "fuzz", baseDirectory: "/"))
        builder.registry = FuzzRegistry.shared  // sources that hand files to other formats (export zips) look them up here
        let built: any Stage
        do { built = try descriptor.build(builder) } catch { fatalError("\(component) cannot be built: \(error)") }
        guard let source = built as? any Source else { fatalError("\(component) is not a source") }
        let context = StageContext(name: "in", type: component, policy: .quarantine, quarantine: quarantine, progress: ProgressMeter())
        var records = 0
        // A source that refuses the input before reading it leaves the bytes waiting; the next
        // `provide` replaces them.
        try? source.run(context: context) { records += $0.count }
        return records
    }
}

