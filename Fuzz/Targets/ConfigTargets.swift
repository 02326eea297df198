import CSVFormats
import HealthPipeCore

/// YAML loaders: a pipeline (parse, interpolate, validate, build every component) and a YAML
/// adapter (compile its columns, time format and values).
enum ConfigTargets {
    static func pipeline(_ data: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: data, as: UTF8.self)
        guard let document = try? ConfigDocument(file: "fuzz.yml", text: text, environment: ["HOME": "/home/fuzz", "TZ_NAME": "UTC"]),
              let spec = try? PipelineSpec(document: document) else { return 0 }
        let graph = try? PipelineGraph.build(spec: spec, registry: FuzzRegistry.shared,
                                     settings: RunSettings(timezone: "UTC", subject: "fuzz", baseDirectory: "/fuzz"),
                                     defaultQuarantine: "/dev/null")
        return graph?.nodes.count ?? 0
    }

    static func adapter(_ data: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: data, as: UTF8.self)
        guard let document = try? ConfigDocument(file: "fuzz-adapter.yaml", text: text, environment: [:]) else { return 0 }
        return (try? MappedCSVAdapters.component(document: document)).map { $0.options.count } ?? 0
    }
}
