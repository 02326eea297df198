import HealthPipeCore

/// `classify`'s band scheme: a preset, or custom bands with an explicit unit.
enum ClassifyOptions {
    struct CustomBand: Decodable {
        var name: String
        /// Strict upper edge: values below it are in this band.
        var below: Double?
        /// Inclusive upper edge: values up to and including it are in this band.
        var up_to: Double?
    }

    static func scheme(_ b: ComponentBuilder) throws -> BandScheme {
        let preset: String? = try b.value("preset"), target: String? = try b.value("target")
        let unit: GlucoseUnit? = try b.value("unit")
        if let bands = try b.value("bands", as: [CustomBand].self) {
            if preset != nil { throw b.error("give either 'preset' or 'bands', not both", option: "preset") }
            guard let unit else { throw b.error("custom 'bands' need an explicit 'unit' (mg/dL or mmol/L)", option: "bands") }
            guard bands.count >= 2 else { throw b.error("give at least two bands", option: "bands") }
            var out: [BandScheme.Band] = []
            var last = -Double.infinity
            for (i, band) in bands.enumerated() {
                let isLast = i == bands.count - 1
                if isLast {
                    guard band.below == nil, band.up_to == nil else { throw b.error("the last band '\(band.name)' takes everything above; give it no edge", option: "bands") }
                    out.append(.init(label: Symbol(band.name), upper: nil, inclusive: false))
                    continue
                }
                guard (band.below == nil) != (band.up_to == nil) else {
                    throw b.error("band '\(band.name)' needs exactly one of 'below' or 'up_to'", option: "bands")
                }
                let edge = unit.toMgdl(band.below ?? band.up_to!)
                guard edge > last else { throw b.error("band edges must increase ('\(band.name)')", option: "bands") }
                last = edge
                out.append(.init(label: Symbol(band.name), upper: edge, inclusive: band.up_to != nil))
            }
            let names = bands.map(\.name)
            let targetIndex: Int
            if let target {
                guard let i = names.firstIndex(of: target) else {
                    throw b.error("target '\(target)' is not one of the bands (\(names.joined(separator: ", ")))", option: "target")
                }
                targetIndex = i
            } else {
                targetIndex = names.firstIndex { ["normal", "in_range", "target", "in range"].contains($0.lowercased()) } ?? bands.count / 2
            }
            return BandScheme(name: "custom", bands: out, target: targetIndex)
        }
        let name = preset ?? "seeds"
        guard let scheme = BandScheme.presets[name] else {
            throw b.error("unknown preset '\(name)' (seeds, consensus, range)", option: "preset")
        }
        return scheme
    }
}
