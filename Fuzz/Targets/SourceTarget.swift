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
    nonisolated(unsafe) private static let options = try! ConfigDocument(file: "fuzz.yml", text: "path: /fuzz/input\ntimezone: Europe/London\n",
                                                     environment: [:])

    static func run(component: String, bytes: [UInt8]) -> Int {
        guard let descriptor = FuzzRegistry.shared.component(named: component) else { fatalError("no component \(component)") }
        let sniff = FileSniff(path: "/fuzz/input", prefix: Array(bytes.prefix(64 << 10)))
        _ = descriptor.detect?(sniff)
        _ = try? FuzzRegistry.shared.identify(sniff)
        ByteInput.provide(bytes, as: "/fuzz/input")
        let builder = ComponentBuilder(stageName: "in", document: options, node: options.root,
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

