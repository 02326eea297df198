import HealthPipeCore

/// Labels each glucose reading with its band; everything else passes through unchanged.
/// Readings are already whole mg/dL when they came in as mmol/L (the rounding rule), and
/// mg/dL-native values are classified as they are (reference/analytics.md §3–4).
public final class ClassifyTransform: Transform {
    public let scheme: BandScheme
    let metrics: Set<Symbol>

    public init(scheme: BandScheme, metrics: Set<Symbol> = [Metrics.glucose]) {
        self.scheme = scheme
        self.metrics = metrics
    }

    public func process(_ batch: RecordBatch, context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var out = batch
        let labels = scheme.bands.map(\.label)
        out.measurements.withUnsafeMutableBufferPointer { ms in
            for i in ms.indices where metrics.contains(ms[i].metric) {
                ms[i].band = labels[scheme.classify(ms[i].value)]
            }
        }
        try emit(out)
    }
}

public let classifyComponent = ComponentDescriptor(
    name: "classify", role: .transform, family: "HealthPipeAnalytics",
    summary: """
        Labels glucose readings with a band (stored in measurements.band). Presets: seeds (low < 4.0, normal \
        4.0–10.0, high > 10.0 mmol/L = < 72 / 72–180 / > 180 mg/dL), consensus (very_low < 54, low 54–69, in_range \
        70–180, high 181–250, very_high > 250 mg/dL), range (low < 70, in_range 70–180, high > 180). Custom bands take \
        an explicit unit; mmol/L edges are converted to whole mg/dL.
        """,
    options: [
        OptionDoc("preset", "seeds | consensus | range", default: "seeds", "a built-in band scheme"),
        OptionDoc("bands", "list of {name, below | up_to}", "custom bands, lowest first; the last has no edge"),
        OptionDoc("unit", "mg/dL | mmol/L", "unit of custom band edges (required with bands)"),
        OptionDoc("target", "band name", default: "normal/in_range/target, else the middle band",
                  "the in-target band: bands below it count as low, above it as high"),
        OptionDoc("metrics", "list of metric names", default: "[glucose]", "which measurements to classify"),
    ],
    accepts: [.measurements, .events], produces: [.measurements], passesThrough: true,
    build: { b in
        let metrics = try b.value("metrics") ?? ["glucose"]
        return ClassifyTransform(scheme: try ClassifyOptions.scheme(b), metrics: Set(metrics.map { Symbol($0) }))
    })
