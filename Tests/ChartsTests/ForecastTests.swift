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
                // The points up to the day's 24:00 (simglucose's days end at 23:55: one point, at 24:00).
                let end = (v.day + 1) * 86_400
                let times = (1...6).map { last + Int64($0 * 300) }.filter { LocalDays.local($0, f.offset) <= end }
                #expect(f.points.map(\.utc) == times)
                for (got, exp) in zip(f.points.map(\.mgdl), want) { #expect(abs(got - exp) < 1e-9, "\(model) \(CivilDate.isoDate(fromDays: v.day))") }
            }
        }
    }

    /// The forecasts of `days` as a view draws them: (issue time, values).
    func drawn(_ loader: ChartLoader, _ days: ClosedRange<Int64>) throws -> [[Double]] {
        try loader.dayViews(days).map { v in try #require(v.forecast).points.map(\.mgdl) }
    }

    /// Issue 25: `serve` keeps the fitted forecaster (a checkpoint) and starts later views from it.
    /// Each view equals the one drawn without a checkpoint — before and after the readings the fit
    /// read change, whether or not the store's version says so (a digest of those readings decides).
    @Test(arguments: [ForecastModelKind.ridge, .ridgeTreatments])
    func aKeptFitDrawsTheSameForecastsAndIsDroppedWhenItsReadingsChange(model: ForecastModelKind) throws {
        let (readings, events) = try Fixture.simglucose("adult#004")
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        var settings = ViewSettings()
        settings.model = model
        let source = MemorySource(readings: readings, events: events)
        final class Version: @unchecked Sendable { var text = "v1" }
        let version = Version()
        let kept = ForecastCheckpoints(storeVersion: { version.text })
        let cached = ChartLoader(source: source, subject: "t", settings: settings, forecastCheckpoints: kept)
        let plain = ChartLoader(source: source, subject: "t", settings: settings)
        let late = (first + 13)...(first + 13), later = (first + 9)...(first + 12), fitting = (first + 3)...(first + 3)
        let expected = try [late, later, fitting].map { try drawn(plain, $0) }
        #expect(try drawn(cached, late) == expected[0])  // fits, keeps the state
        /// The forecasts `loader` draws for `days`, and how many readings it read for them.
        func draw(_ loader: ChartLoader, _ days: ClosedRange<Int64>) throws -> (forecasts: [[Double]], read: Int) {
            let before = source.readingsServed
            let f = try drawn(loader, days)
            return (f, source.readingsServed - before)
        }
        let withoutKept = try draw(plain, later).read
        let fromKept = try draw(cached, later)  // from the checkpoint
        let withKept = fromKept.read
        #expect(fromKept.forecasts == expected[1])
        // The fit's eight days (8 × 288 readings) are not read again.
        #expect(withoutKept - withKept > 2_000, "the kept fit was not used: \(withKept) readings read, \(withoutKept) without it")
        #expect(try drawn(cached, fitting) == expected[2])  // inside the fitting week: streamed as before

        // A reading of the first week changes: with the version moved, the digest no longer matches.
        source.readings[100].value += 40
        version.text = "v2"
        let changed = try drawn(plain, late)
        #expect(changed != expected[0])
        #expect(try drawn(cached, late) == changed)
        // The version moves but the readings do not: the checkpoint still serves, after one digest.
        version.text = "v3"
        let checked = try draw(cached, later)
        #expect(checked.forecasts == (try drawn(plain, later)))
        #expect(checked.read > withKept + 2_000, "the digest was not computed")
        #expect(try draw(cached, later).read == withKept)
    }

    func forecast(issuedAtMinute minute: Int64, origin: Double, values: [Double]) -> DayView.Forecast {
        let t = 100 * 86_400 + minute * 60 - 3600  // UTC of that local minute (UTC+1)
        return DayView.Forecast(model: "ridge", issuedAt: t, offset: 3600, origin: origin,
                                points: values.enumerated().map { (t + Int64(300 * ($0.offset + 1)), $0.element) })
    }

    /// Issue 22: a complete day's forecast was drawn past 24:00 (off the chart); now only its points up
    /// to midnight are kept, and a forecast issued within five minutes of midnight is not drawn at all.
    @Test func aForecastNeverGoesPastTheDaysEnd() throws {
        let midnight: Int64 = 100 * 86_400
        let late = forecast(issuedAtMinute: 1440 - 5, origin: 120, values: [121, 122, 123, 124, 125, 126])
        let kept = try #require(DayViewBuilder.insideDay(late, midnight: midnight))
        #expect(kept.points.count == 1)
        #expect(kept.points.allSatisfy { LocalDays.local($0.utc, 3600) <= midnight + 86_400 })
        #expect(DayViewBuilder.insideDay(forecast(issuedAtMinute: 1440 - 3, origin: 120, values: [121, 122]), midnight: midnight) == nil)
        let noon = forecast(issuedAtMinute: 720, origin: 120, values: [121, 122, 123, 124, 125, 126])
        #expect(DayViewBuilder.insideDay(noon, midnight: midnight)?.points.count == 6)
    }

    /// Issue 22: the first point could sit 2 mmol/L (36 mg/dL) from the last reading, a vertical jump,
    /// and the view moved the line by the excess over 15 mg/dL, keeping its shape — and so its
    /// plunge (issue 36: 7.8 → 4.5 → 2.5 → 1.3 mmol/L from one noisy step). Both are the forecaster's
    /// `ForecastEnvelope` now: the view draws no ridge line from such a step, and every line it draws
    /// keeps within 4 mg/dL a minute of the last reading — in the JSON and the SVG.
    @Test(arguments: ForecastModelKind.allCases)
    func aNoisyLastStepDrawsNoPlunge(model: ForecastModelKind) throws {
        let noon: Int64 = 100 * 86_400 + 12 * 3600
        let readings = (0..<36).map { Fixture.reading(noon - Int64((36 - $0) * 300), 164) } + [Fixture.reading(noon, 141)]
        var settings = ViewSettings()
        settings.model = model
        settings.unit = .mgdL
        let view = try ChartLoader(source: MemorySource(readings: readings), subject: "t", settings: settings).dayView(100)
        if model == .ridge { #expect(view.forecast == nil) }
        for (h, p) in (view.forecast?.points ?? []).enumerated() {
            #expect(abs(p.mgdl - 141) <= 20 * Double(h + 1), "\(model) +\((h + 1) * 5) min: \(p.mgdl)")
        }
        #expect(!String(decoding: view.json(), as: UTF8.self).contains("\"shift\""))
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

/// Issue 22 (4): an AID day's insulin lane, gathered per hour.
@Suite struct LaneItemTests {
    func dose(_ minute: Double, _ units: Double?, _ type: String, minutes: Int64 = 0) -> DayView.Marker {
        let utc = Int64(minute * 60)
        return DayView.Marker(kind: .insulin, name: "", utc: utc, endUTC: utc + minutes * 60, offset: 0, minute: minute, carbs: nil, protein: nil,
                              fat: nil, insulin: units, insulinType: type, intensity: "", source: "Nightscout")
    }

    @Test func microBolusesAndBasalEntriesAreGatheredPerHour() {
        let markers = [dose(905, 0.1, "bolus"), dose(905, nil, "temp_basal", minutes: 30), dose(910, 0.2, "bolus"), dose(915, 0.15, "bolus"),
                       dose(930, 4.5, "bolus"), dose(935, nil, "temp_basal", minutes: 15), dose(965, 0.3, "bolus")]
        let items = LaneItem.items(markers)
        // 15:00–16:00: one basal group (2), one micro-bolus group (3), the 4.5 U bolus alone; 16:05: alone.
        #expect(items.map(\.markers.count) == [2, 1, 3, 1])
        #expect(items.map(\.minute) == [912, 930, 940, 965])
        #expect(items[2].detail == "Micro-boluses 15:00–16:00: 3 doses, 0.45 U in total (15:05 0.1 U, 15:10 0.2 U, 15:15 0.15 U)")
        #expect(items[2].shortLabel == "0.5 U" || items[2].shortLabel == "0.4 U")
        #expect(items[0].detail == "Basal insulin 15:00–16:00: 2 entries (15:05 temp for 30min, 15:35 temp for 15min)")
        #expect(items[0].shortLabel.isEmpty && items[1].shortLabel == "4.5 U")
        #expect(markers[1].isBasal && markers[1].title == "Temp basal" && markers[1].detail == "Temp basal at 15:05: for 30min")
    }
}

/// Issue 25: a day view's six neighbouring days come from the store's daily rows (what the day
/// table shows); a day without a row is counted from its readings.
@Suite struct SideDayTests {
    @Test func neighboursComeFromDailyRowsElseFromReadings() throws {
        let (readings, _) = try Fixture.simglucose("adult#004")
        let first = CivilDate.floorDiv(readings[0].start, 86_400)
        let day = first + 6
        let row = DayLogRow(day: day - 1, readings: 7, low: 60, avg: 100.5, high: 200)
        var settings = ViewSettings()
        settings.model = nil
        let withRow = try ChartLoader(source: MemorySource(readings: readings, rows: [row]), subject: "t", settings: settings).dayView(day)
        let plain = try ChartLoader(source: MemorySource(readings: readings), subject: "t", settings: settings).dayView(day)
        let yesterday = try #require(withRow.previous.last)
        #expect(yesterday.day == day - 1 && yesterday.count == 7 && yesterday.min == 60 && yesterday.mean == 100.5 && yesterday.max == 200)
        // The other days have no row: their readings, exactly as counted before.
        let expected = (2...3).reversed().map { (back: Int) -> DayView.SideDay in
            let d = day - Int64(back)
            return DayViewBuilder.side(day: d, readings: readings.filter { LocalDays.day($0.start, $0.utcOffset) == d })
        }
        #expect(withRow.previous.dropLast().map(\.count) == expected.map(\.count))
        #expect(withRow.previous.dropLast().map(\.mean) == expected.map(\.mean))
        #expect(withRow.next.map(\.count) == plain.next.map(\.count))
        #expect((plain.previous.last?.count ?? 0) > 7)  // without the row: yesterday's readings
    }
}
