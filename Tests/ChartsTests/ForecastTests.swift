@testable import Charts
import HealthPipeAnalytics
import HealthPipeCore
import Foundation
import Testing

/// The day view's forecast must be the one the `predict` stage issues at the day's last reading,
/// although the view never streams the whole history: it streams until the personal fit, then
/// jumps to each day's recent past.
@Suite struct ForecastTests {
    /// Streams everything through one forecaster (what `predict` does) and keeps the forecast issued at each time.
    func streamed(_ model: ForecastModelKind, _ readings: [Measurement], _ events: [Event]) -> [Int64: [Double]] {
        let f = SubjectForecaster(model: model, steps: 6)
        for e in events where e.kind == .meal || e.kind == .insulin { f.addTreatment(time: e.start, carbs: e.carbs ?? 0, insulin: e.insulin ?? 0) }
        var out: [Int64: [Double]] = [:]
        for r in readings { if let x = f.add(time: r.start, utcOffset: r.utcOffset, value: r.value) { out[x.origin] = x.values } }
        return out
    }

    @Test(arguments: [ForecastModelKind.ridge, .ridgeTreatments, .ar2])
    func forecastAtEachDaysLastReadingEqualsTheStreamedOne(model: ForecastModelKind) throws {
        let (readings, events) = try Fixture.simglucose("adult#004")
        // Days far from the start, and days inside the first (fitting) week.
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        let expected = streamed(model, readings, events)
        for days in [(first + 10)...(first + 13), (first + 2)...(first + 3), (first + 13)...(first + 13)] {
            var settings = ViewSettings()
            settings.model = model
            let views = try ChartLoader(source: MemorySource(readings: readings, events: events), subject: "t", settings: settings).dayViews(days)
            for v in views {
                let last = v.points.map(\.utc).max()!
                let f = try #require(v.forecast, "no forecast on \(CivilDate.isoDate(fromDays: v.day))")
                #expect(f.issuedAt == last)
                let want = try #require(expected[last])
                #expect(f.points.count == 6)
                for (got, exp) in zip(f.points.map(\.mgdl), want) { #expect(abs(got - exp) < 1e-9, "\(model) \(CivilDate.isoDate(fromDays: v.day))") }
                #expect(f.points.map(\.utc) == (1...6).map { last + Int64($0 * 300) })
            }
        }
    }

    @Test func noModelNoForecast() throws {
        let (readings, _) = try Fixture.simglucose("adult#004")
        var settings = ViewSettings()
        settings.model = nil
        let day = CivilDate.floorDiv(readings[2000].start, 86_400)
        let v = try ChartLoader(source: MemorySource(readings: readings), subject: "t", settings: settings).dayView(day)
        #expect(v.forecast == nil)
        #expect(v.json().jsonObject["forecast"] is NSNull)
    }
}
