import HealthPipeCore
import Yams

/// A source that finds its input's format by content when the run starts and reads it with that
/// format's source: `stdin` (filter mode: standard input, whatever it holds — HealthPipe's NDJSON
/// records, a CSV export, any format HealthPipe detects) and `auto` (a file, as `healthpipe import`
/// detects it; for pipelines written by programs that do not know the formats, such as the Spark
/// driver). The format is decided from the first 64 KiB, which the chosen source then reads again (a
/// pipe is read once), or forced with `format:`. Empty standard input is no records, not an error: an
/// engine may hand an empty partition.
final class DetectedSource: Source, InputDescribing {
    let path: String
    private let builder: ComponentBuilder
    /// Built at once when `format` is given (its option errors are configuration errors).
    private let forced: (any Source)?
    var inputPaths: [String] { [path] }

    init(path: String, builder: ComponentBuilder, forced: (any Source)?) {
        self.path = path
        self.builder = builder
        self.forced = forced
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        if let forced { return try forced.run(context: context, emit: emit) }
        let sniff = try FileSniff.read(path: path)
        if path == "-", sniff.prefix.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            context.registerInput(InputFileInfo(path: path, format: "empty", size: 0))
            return
        }
        guard let registry = builder.registry else { throw RegistryError(message: "\(builder.stageName): built without a registry") }
        let found = try registry.identify(sniff)
        guard found.role == .source, !Self.names.contains(found.name) else {
            throw InputError(file: path, reason: "not a format a source reads")
        }
        try builder.delegate(to: found, path: path).run(context: context, emit: emit)
    }

    static let names: Set<String> = ["stdin", "auto"]

    /// Builds `stdin` (path `-`) or `auto` (its `path` option).
    static func build(_ b: ComponentBuilder, path: String) throws -> any Stage {
        try b.checkHandedOnOptions()
        guard let name = try b.value("format", as: String.self) else {
            try b.refuseUndeclaredOptions()
            return DetectedSource(path: path, builder: b, forced: nil)
        }
        guard let registry = b.registry, let d = registry.component(named: name), d.role == .source, !names.contains(d.name) else {
            let all = b.registry?.all(role: .source).map(\.name).filter { !names.contains($0) } ?? []
            throw b.error("unknown source type '\(name)'"
                + (NameSuggester.nearest(to: name, in: all).map { " (did you mean '\($0)'?)" } ?? ""), option: "format")
        }
        return DetectedSource(path: path, builder: b, forced: try b.delegate(to: d, path: path))
    }
}

/// Without `format`, only the options every reader of naive local times or subjects shares (with
/// `format`, that format's options are checked by its own source).
private let detectedOptions = [
    OptionDoc("format", "source type", default: "detected", "force a source type (e.g. dexcom-clarity); its options may then be given too"),
    OptionDoc("timezone", "IANA name or offset", default: "the run's", "zone for naive local timestamps (CSV exports)"),
    OptionDoc("subject", "text", default: "the run's", "whose data this is"),
]

public let stdinSourceComponent = ComponentDescriptor(
    name: "stdin", role: .source, family: "JSONFormats",
    summary: """
        Filter mode: reads standard input — HealthPipe's NDJSON records or any export HealthPipe detects by content (a CSV \
        export…) — so RDD.pipe, Spark SQL TRANSFORM, Hadoop streaming and shell pipes can drive a pipeline. Empty input is no \
        records. See docs/scale-out.md.
        """,
    options: detectedOptions,
    produces: .all,
    delegatesOptions: true,
    findsFormatsAtRun: true,
    build: { b in
        if b.node.mapping?.contains(where: { $0.key.string == "path" }) == true {
            throw b.error("stdin reads standard input; for a file use { type: auto, path: … }", option: "path")
        }
        return try DetectedSource.build(b, path: "-")
    })

public let autoSourceComponent = ComponentDescriptor(
    name: "auto", role: .source, family: "JSONFormats",
    summary: """
        A file of any format HealthPipe detects by content, read by that format's source — as `healthpipe import` \
        decides — for pipelines written by programs that do not know the formats (examples/spark/cohort.py).
        """,
    options: [OptionDoc("path", "path", required: true, "the file (`-` for standard input)")] + detectedOptions,
    produces: .all,
    delegatesOptions: true,
    findsFormatsAtRun: true,
    build: { b in
        try DetectedSource.build(b, path: b.path(try b.required("path")))
    })
