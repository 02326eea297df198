import HealthPipeCore
import Yams

/// Filter mode's source: standard input, whatever it holds — HealthPipe's NDJSON records, a CSV
/// export, any format HealthPipe detects by content. The format is found when the run starts (from
/// the first 64 KiB, which the chosen source then reads again: a pipe is read once), or forced with
/// `format:`. Empty input is no records, not an error: an engine may hand an empty partition.
final class StdinSource: Source, InputDescribing {
    static let path = "-"
    private let builder: ComponentBuilder
    /// Built at once when `format` is given (its option errors are configuration errors).
    private let forced: (any Source)?
    var inputPaths: [String] { [Self.path] }

    init(builder: ComponentBuilder, forced: (any Source)?) {
        self.builder = builder
        self.forced = forced
    }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        if let forced { return try forced.run(context: context, emit: emit) }
        let sniff = try FileSniff.read(path: Self.path)
        if sniff.prefix.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            context.registerInput(InputFileInfo(path: Self.path, format: "empty", size: 0))
            return
        }
        guard let registry = builder.registry else { throw RegistryError(message: "stdin: built without a registry") }
        let found = try registry.identify(sniff)
        guard found.role == .source, found.name != stdinSourceComponent.name else {
            throw InputError(file: "standard input", reason: "not a format a source reads")
        }
        try Self.delegate(found, builder).run(context: context, emit: emit)
    }

    /// The source `descriptor` builds for standard input, with this stage's options and `path: -`.
    static func delegate(_ descriptor: ComponentDescriptor, _ builder: ComponentBuilder, dropping: Set<String> = []) throws -> any Source {
        var pairs = Array(builder.node.mapping ?? [:]).filter { !dropping.contains($0.key.string ?? "") }
        pairs.append((Node("path"), Node(path)))
        var b = ComponentBuilder(stageName: builder.stageName, document: builder.document,
                                 node: .mapping(Node.Mapping(pairs)), settings: builder.settings)
        b.registry = builder.registry
        guard let source = try descriptor.build(b) as? any Source else {
            throw builder.error("'\(descriptor.name)' does not read files")
        }
        return source
    }
}

/// Without `format`, only the options every reader of naive local times or subjects shares.
struct StdinOptions: Decodable {
    var timezone: String?
    var subject: String?
}

public let stdinSourceComponent = ComponentDescriptor(
    name: "stdin", role: .source, family: "JSONFormats",
    summary: "Filter mode: reads standard input — HealthPipe's NDJSON records or any export HealthPipe detects by content (a CSV "
        + "export…) — so RDD.pipe, Spark SQL TRANSFORM, Hadoop streaming and shell pipes can drive a pipeline. Empty input is no "
        + "records. See docs/scale-out.md.",
    options: [
        OptionDoc("format", "source type", default: "detected", "force a source type (e.g. dexcom-clarity); its options may then be given too"),
        OptionDoc("timezone", "IANA name or offset", default: "the run's", "zone for naive local timestamps (CSV exports)"),
        OptionDoc("subject", "text", default: "the run's", "whose data this is"),
    ],
    produces: [.measurements, .events, .dailySummaries, .metricSets, .forecasts, .alerts],
    build: { b in
        guard let pair = b.node.mapping?.first(where: { $0.key.string == "format" }) else {
            _ = try b.options(StdinOptions.self)
            return StdinSource(builder: b, forced: nil)
        }
        let name = pair.value.string ?? ""
        guard let registry = b.registry, let d = registry.component(named: name), d.role == .source, d.name != "stdin" else {
            let names = b.registry?.all(role: .source).map(\.name).filter { $0 != "stdin" } ?? []
            throw b.error("unknown source type '\(name)'"
                + (NameSuggester.nearest(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""), option: "format")
        }
        return StdinSource(builder: b, forced: try StdinSource.delegate(d, b, dropping: ["format"]))
    })
