import Foundation
import HealthPipeCore
import HealthPipeTestSupport

/// The reference files (Tests/Fixtures/reference, see its PROVENANCE.md), read for the tests.
enum MetricsReferenceData {
    static let root = Repository.url("Tests/Fixtures/reference")

    static func lines(_ relative: String) throws -> [Substring] {
        let url = root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else { throw MissingFixture(path: url.path) }
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0 }
    }

    /// "2024-01-01T00:05:00" as naive local seconds.
    static func seconds(_ iso: Substring) -> Int64 {
        let p = iso.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
        return CivilDate.days(year: p[0], month: p[1], day: p[2]) * 86_400 + Int64(p[3] * 3600 + p[4] * 60 + p[5])
    }

    struct Series {
        var times: [Int64] = []
        var values: [Double] = []
    }

    /// One patient's CGM readings from simglucose/all.csv or irregular.csv (empty cells dropped).
    static func readings(file: String, patient: String) throws -> Series {
        var s = Series()
        for line in try lines("simglucose/\(file)") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f[1] == patient, !f[2].isEmpty else { continue }
            s.times.append(seconds(f[0]))
            s.values.append(Double(f[2])!)
        }
        return s
    }

    /// The readings of one local date ("2024-01-03"), or all of them for "all".
    static func period(_ s: Series, _ period: Substring) -> Series {
        guard period != "all" else { return s }
        let day = seconds(period + "T00:00:00") / 86_400
        var out = Series()
        for i in s.times.indices where CivilDate.floorDiv(s.times[i], 86_400) == day {
            out.times.append(s.times[i])
            out.values.append(s.values[i])
        }
        return out
    }

    struct MetricRow {
        var source: Substring, patient: Substring, period: Substring, metric: Substring, value: Double, tool: Substring
    }

    static func metricRows() throws -> [MetricRow] {
        try lines("reference_metrics.csv").map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            return MetricRow(source: f[0], patient: f[1], period: f[2], metric: f[3], value: Double(f[4])!, tool: f[5])
        }
    }

    /// Relative agreement for values printed with 6 significant digits.
    static func agrees(_ a: Double?, _ b: Double, relative: Double = 1e-5) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= relative * abs(b) + 1e-12
    }
}
