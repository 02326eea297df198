import Foundation
import HealthPipeCore
import Yams

/// A whole file source (format detection, row mapping, plausibility, quarantine writing) run on
/// the input as if it were a file. For targets with alternatives the first byte picks the component.
enum SourceTarget {
    static func make(_ name: String, component: String, alternatives: [String] = []) -> FuzzTarget {
        let names = [component] + alternatives
        return FuzzTarget(name: name, summary: "the \(names.joined(separator: " / ")) source on one file") { data in
            var bytes = data[...]
            var chosen = component
            if !alternatives.isEmpty, let first = bytes.first {
                chosen = names[Int(first) % names.count]
                bytes = bytes.dropFirst()
            }
            return run(component: chosen, bytes: Array(bytes))
        }
    }

    private static let quarantine = QuarantineWriter(path: "/dev/null")
    /// Each component reads its own path, so targets replayed side by side never take each other's bytes.
    private static func options(_ component: String) -> (path: String, document: ConfigDocument) {
        let path = "/fuzz/\(component)"
        return (path, try! ConfigDocument(file: "fuzz.yml", text: "path: \(path)\ntimezone: Europe/London\n", environment: [:]))
    }
    nonisolated(unsafe) private static var documents: [String: (path: String, document: ConfigDocument)] = [:]
    private static let lock = NSLock()

    static func run(component: String, bytes: [UInt8]) -> Int {
        guard let descriptor = FuzzRegistry.shared.component(named: component) else { fatalError("no component \(component)") }
        let (path, document) = lock.withLock {
            if let known = documents[component] { return known }
            let made = options(component)
            documents[component] = made
            return made
        }
        let sniff = FileSniff(path: path, prefix: Array(bytes.prefix(64 << 10)))
        _ = descriptor.detect?(sniff)
        _ = try? FuzzRegistry.shared.identify(sniff)
        ByteInput.provide(bytes, as: path)
        let builder = ComponentBuilder(stageName: "in", document: document, node: document.root,
                                       settings: RunSettings(timezone: "Europe/London", subject: "fuzz", baseDirectory: "/"))
        guard let source = (try? descriptor.build(builder)) as? any Source else { fatalError("\(component) is not a source") }
        let context = StageContext(name: "in", type: component, policy: .quarantine, quarantine: quarantine, progress: ProgressMeter())
        var records = 0
        // A source that refuses the input before reading it leaves the bytes waiting; the next
        // `provide` replaces them.
        try? source.run(context: context) { records += $0.count }
        return records
    }
}

