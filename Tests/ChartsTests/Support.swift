import Charts
import Foundation
import HealthPipeCore
import HealthPipeTestSupport

/// A `ChartDataSource` over records in memory (what the store returns, without SQLite), counting
/// the readings it hands out so tests can see how much a view reads.
final class MemorySource: ChartDataSource {
    var readings: [Measurement]
    var eventList: [Event]
    var rows: [DayTable.Row]
    private(set) var readingsServed = 0

    init(readings: [Measurement], events: [Event] = [], rows: [DayTable.Row] = []) {
        self.readings = readings.sorted { $0.start < $1.start }
        eventList = events.sorted { $0.start < $1.start }
        self.rows = rows
    }

    func glucose(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] {
        let out = readings.filter { $0.start >= fromUTC && $0.start < toUTC }
        readingsServed += out.count
        return out
    }

    func events(fromUTC: Int64, toUTC: Int64) throws -> [Event] { eventList.filter { $0.start >= fromUTC && $0.start < toUTC } }

    /// `basal_rate` readings are kept apart from glucose (`readings` holds the glucose series).
    var basal: [Measurement] = []
    func basalRates(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] { basal.filter { $0.start >= fromUTC && $0.start < toUTC } }

    func glucoseSpan() throws -> (first: Measurement, last: Measurement)? {
        guard let f = readings.first, let l = readings.last else { return nil }
        return (f, l)
    }

    func dayRows(fromDay: Int64, toDay: Int64) throws -> [DayTable.Row] { rows.filter { $0.day >= fromDay && $0.day <= toDay } }

    /// Finger-stick checks, apart from the CGM series as the store keeps them (metric `blood_glucose`).
    var checkList: [Measurement] = []
    func checks(fromUTC: Int64, toUTC: Int64) throws -> [Measurement] { checkList.filter { $0.start >= fromUTC && $0.start < toUTC } }
    func checkSpan() throws -> (first: Measurement, last: Measurement)? {
        guard let f = checkList.first, let l = checkList.last else { return nil }
        return (f, l)
    }
}

/// Foundation has a `Measurement` too.
typealias Measurement = HealthPipeCore.Measurement

enum Fixture {
    static let subject = Symbol("t")

    static func reading(_ utc: Int64, _ mgdl: Double, offset: Int32 = 0, source: String = "cgm", band: String = "",
                        flags: RecordFlags = []) -> Measurement {
        Measurement(subject: subject, metric: Metrics.glucose, source: Symbol(source), start: utc, utcOffset: offset, value: mgdl,
                    unit: CanonicalUnits.glucose, flags: flags, band: band.isEmpty ? .empty : Symbol(band))
    }

    static func day(_ iso: String) -> Int64 {
        let p = iso.split(separator: "-").map { Int($0)! }
        return CivilDate.days(year: p[0], month: p[1], day: p[2])
    }

    /// The simglucose reference data (Tests/Fixtures/reference, see its PROVENANCE.md): one
    /// patient's 14 days of 5-minute CGM with its carbs (meals) and insulin, naive UTC.
    static func simglucose(_ patient: String) throws -> (readings: [Measurement], events: [Event]) {
        let path = Repository.path("Tests/Fixtures/reference/simglucose/all.csv")
        guard FileManager.default.fileExists(atPath: path) else { throw MissingFixture(path: path) }
        var readings: [Measurement] = [], events: [Event] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            guard f[1] == patient else { continue }
            let d = day(String(f[0].prefix(10)))
            let time = d * 86_400 + Int64(f[0].dropFirst(11).prefix(2))! * 3600 + Int64(f[0].dropFirst(14).prefix(2))! * 60
            readings.append(reading(time, Double(f[2])!))
            let carbs = Double(f[3])!, insulin = Double(f[4])!
            if carbs > 0 { events.append(Event(subject: subject, kind: .meal, source: Symbol("sim"), start: time, utcOffset: 0, carbs: carbs)) }
            if insulin > 0 {
                events.append(Event(subject: subject, kind: .insulin, subtype: Symbol("basal"), source: Symbol("sim"), start: time,
                                    utcOffset: 0, insulin: insulin))
            }
        }
        return (readings, events)
    }
}

struct MissingFixture: Error, CustomStringConvertible {
    var path: String
    var description: String { "missing test fixture \(path) (see Tests/Fixtures/PROVENANCE.md)" }
}

extension Array where Element == UInt8 {
    /// Parsed JSON (tests only; the product writes JSON by hand).
    var jsonObject: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(self))) as? [String: Any] ?? [:] }
}
