import Foundation
import HealthPipeAnalytics
import HealthPipeCore
import HealthPipeTestSupport

/// The simglucose reference data (Tests/Fixtures/reference, see its PROVENANCE.md), read plainly.
enum SimGlucose {
    static let path = Repository.path("Tests/Fixtures/reference/simglucose/all.csv")

    struct Row {
        var time: Int64
        var glucose: Double
        var carbs: Double
        var insulin: Double
    }

    /// Patient → rows in time order. Timestamps are naive UTC on a regular 5-minute grid.
    static func load() throws -> [String: [Row]] {
        guard FileManager.default.fileExists(atPath: path) else { throw MissingFixture(path: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [String: [Row]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            let ts = f[0]
            let day = Int64(ts.dropFirst(8).prefix(2))!, hour = Int64(ts.dropFirst(11).prefix(2))!
            let minute = Int64(ts.dropFirst(14).prefix(2))!
            // 2024-01-DD: days since 2024-01-01 00:00 UTC (1704067200).
            let time = 1_704_067_200 + (day - 1) * 86_400 + hour * 3600 + minute * 60
            out[String(f[1]), default: []].append(Row(time: time, glucose: Double(f[2])!, carbs: Double(f[3])!,
                                                      insulin: Double(f[4])!))
        }
        return out
    }

    static func series(_ patient: String, _ rows: [Row]) -> SubjectSeries {
        var s = SubjectSeries(subject: patient)
        for r in rows {
            s.times.append(r.time)
            s.offsets.append(0)
            s.values.append(r.glucose)
            if r.carbs > 0 || r.insulin > 0 { s.treatments.append((r.time, r.carbs, r.insulin)) }
        }
        return s
    }
}
