import HealthPipeCore

/// Names in a Hive-style partitioned output: `<table>/subject=<value>/part-<id>.ndjson`. Values are
/// escaped as Hive and Spark escape partition values (`%` and two hex digits for `/`, `=`, `%`, `:`,
/// control characters…), so Spark's partition discovery reads the subject back as it was; an empty
/// value is Hive's `__HIVE_DEFAULT_PARTITION__`.
enum PartitionPath {
    static let tables: [(kind: RecordKinds, name: String)] = [
        (.measurements, "measurements"), (.events, "events"), (.dailySummaries, "daily"),
        (.metricSets, "metrics"), (.forecasts, "forecasts"), (.alerts, "alerts"),
        (.profiles, "profiles"),
    ]
    static let manifests = "_manifests"

    /// The characters Spark's `ExternalCatalogUtils.escapePathName` escapes, and a leading dot
    /// (a hidden name that Spark would skip).
    static func escape(_ value: String) -> String {
        if value.isEmpty { return "__HIVE_DEFAULT_PARTITION__" }
        var out = ""
        for (i, scalar) in value.unicodeScalars.enumerated() {
            let v = scalar.value
            let special = v < 0x20 || v == 0x7F || "\"#%'*/:=?\\{[]^".unicodeScalars.contains(scalar) || (i == 0 && scalar == ".")
            if special {
                for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A part's file name: `part-` and the 16 hex digits of FNV-1a 64 over the source's identity.
    static func part(for identity: String) -> String { "part-\(StableHash.hex(StableHash.fnv1a64(identity))).ndjson" }

    /// The identity of an input file: its base name (never its folder, which differs between machines).
    static func identity(ofInput path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}

private extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
