import Foundation
import HealthPipeCore

/// What one source run produced, kept in memory: every batch, the stage context (counts, warnings,
/// the input it registered), the dead-letter file and the error that ended the run, if any.
public struct SourceOutput {
    public var batches: [RecordBatch] = []
    public var measurements: [HealthPipeCore.Measurement] = []
    public var events: [Event] = []
    public var context: StageContext
    /// The quarantine file's lines (NDJSON) as written, and each parsed (`file`, `line`, `reason`, `raw`).
    public var quarantineLines: [String] = []
    public var quarantined: [[String: Any]] = []
    /// What the run threw (`SourceRunner.run` rethrows it; `SourceRunner.collect` keeps it here).
    public var error: (any Error)?
    /// The input the source registered first (a test of a one-file source reads its counts here).
    public var input: InputFileInfo { context.inputs[0] }
}

/// Builds a registered source from its YAML options and runs it into memory with a real
/// `StageContext` and quarantine file: the one harness behind every test that runs a source by hand
/// (the CSV tests, `SourceVerifier`).
public enum SourceRunner {
    /// `component` built as stage `in` reading `path`, with more option lines (`options`, YAML) and the
    /// run settings; `registry` for sources that hand files on to other formats (an export zip).
    public static func build(_ component: ComponentDescriptor, path: String, options: String = "",
                             settings: RunSettings = RunSettings(subject: "me", baseDirectory: "/"),
                             registry: ComponentRegistry? = nil) throws -> any Source {
        let yaml = "type: \(component.name)\npath: \"\(path)\"\n" + options
        let document = try ConfigDocument(file: "pipeline.yaml", text: yaml, environment: [:])
        var builder = ComponentBuilder(stageName: "in", document: document, node: document.root, settings: settings)
        builder.registry = registry
        guard let source = try component.build(builder) as? any Source else {
            throw InputError(file: path, reason: "\(component.name) is not a source")
        }
        return source
    }

    /// Runs `source` as stage `name` of type `type` under `policy`; rethrows what the run throws.
    public static func run(_ source: any Source, type: String = "test", name: String = "in",
                           policy: ErrorPolicy = .quarantine) throws -> SourceOutput {
        let out = collect(source, type: type, name: name, policy: policy)
        if let error = out.error { throw error }
        return out
    }

    /// Like `run`, but a thrown error is kept in the output with what was emitted and quarantined before it.
    public static func collect(_ source: any Source, type: String = "test", name: String = "in",
                               policy: ErrorPolicy = .quarantine) -> SourceOutput {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-source-run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let qpath = dir.appendingPathComponent("quarantine.ndjson").path
        let quarantine = QuarantineWriter(path: qpath)
        var out = SourceOutput(context: StageContext.forTesting(type, name: name, policy: policy, quarantine: quarantine))
        do {
            try source.run(context: out.context) { batch in
                out.batches.append(batch)
                out.measurements += batch.measurements
                out.events += batch.events
            }
        } catch {
            out.error = error
        }
        quarantine.close()
        let text = (try? String(contentsOfFile: qpath, encoding: .utf8)) ?? ""
        out.quarantineLines = text.split(separator: "\n").map(String.init)
        out.quarantined = out.quarantineLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return out
    }
}
