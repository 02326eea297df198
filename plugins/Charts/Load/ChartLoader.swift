import HealthPipeAnalytics
import HealthPipeCore

/// Reads what each view needs from a `ChartDataSource` (one range query per view, never the whole
/// history) and builds the views.
public struct ChartLoader {
    public let source: ChartDataSource
    public let subject: String
    public let settings: ViewSettings
    /// Fitted forecasters kept across views by a long-running process; nil: fit for each call.
    public let forecastCheckpoints: ForecastCheckpoints?

    public init(source: ChartDataSource, subject: String, settings: ViewSettings, forecastCheckpoints: ForecastCheckpoints? = nil) {
        self.source = source
        self.subject = subject
        self.settings = settings
        self.forecastCheckpoints = forecastCheckpoints
    }

    /// The first and last local days with CGM readings — for a meter user without any, with
    /// finger-stick checks, so their days are reachable too — and the first and latest of those
    /// readings (nil: no glucose at all). A CGM user's periods stay the CGM's.
    public func span() throws -> (first: Int64, last: Int64, earliest: Measurement, latest: Measurement)? {
        guard let s = try source.glucoseSpan() ?? source.checkSpan() else { return nil }
        return (LocalDays.day(s.first.start, s.first.utcOffset), LocalDays.day(s.last.start, s.last.utcOffset), s.first, s.last)
    }

    /// "Today" as the settings give it, else the real date where the latest reading was taken.
    public func today(latest: Measurement?) -> Int64 {
        if let t = settings.today { return t }
        return LocalDays.day(Clock.nowSeconds(), latest?.utcOffset ?? 0)
    }

    /// Day views for `days`: their readings (from the forecast's look-back before the first), and
    /// the numbers of their three neighbours on each side.
    public func dayViews(_ days: ClosedRange<Int64>) throws -> [DayView] {
        let span = try span()
        let window = LocalDays.utcBounds(firstDay: days.lowerBound, lastDay: days.upperBound)
        let readings = try source.glucose(fromUTC: window.from - DayForecasts.recentSeconds(steps: max(1, settings.horizonMinutes / 5)), toUTC: window.to)
        let sides = try sideDays((days.lowerBound - 3)...(days.upperBound + 3))
        let eventBounds = LocalDays.utcBounds(firstDay: days.lowerBound - 1, lastDay: days.upperBound)
        let events = try source.events(fromUTC: eventBounds.from, toUTC: eventBounds.to)
        // From a day further back: the scheduled rate running at the first midnight started before it.
        let basal = try source.basalRates(fromUTC: eventBounds.from - DayViewBuilder.scheduledRateHolds, toUTC: eventBounds.to)
        let checks = try source.checks(fromUTC: window.from, toUTC: window.to)

        var byDay: [Int64: [Measurement]] = [:]
        for r in readings { byDay[LocalDays.day(r.start, r.utcOffset), default: []].append(r) }
        let scheme = settings.scheme ?? ChartBands.detectPreset(days.flatMap { byDay[$0] ?? [] }) ?? .seeds
        let builder = DayViewBuilder(subject: subject, bands: ChartBands(scheme: scheme), settings: settings,
                                     firstDay: span?.first, lastDay: span?.last, today: today(latest: span?.latest))

        var forecasts: [Int64: DayView.Forecast] = [:]
        if let model = settings.model, let first = span?.earliest.start {
            let issueTimes = days.compactMap { byDay[$0]?.map(\.start).max() }
            forecasts = try DayForecasts(model: model, steps: max(1, settings.horizonMinutes / 5), subject: subject, checkpoints: forecastCheckpoints)
                .run(source: source, first: first, issueTimes: issueTimes, recent: readings)
        }
        return days.map { d in
            let last = byDay[d]?.map(\.start).max()
            return builder.build(day: d, readingsByDay: byDay, events: events, forecast: last.flatMap { forecasts[$0] }, basalRates: basal,
                                 sides: sides, checks: checks)
        }
    }

    public func dayView(_ day: Int64) throws -> DayView { try dayViews(day...day)[0] }

    /// The numbers of `days` as their daily rows hold them (the store's glucose summary of each day,
    /// what the day table shows); a day without one — no readings, or not summarised — counted
    /// from its readings.
    func sideDays(_ days: ClosedRange<Int64>) throws -> [Int64: DayView.SideDay] {
        var out: [Int64: DayView.SideDay] = [:]
        for side in try source.glucoseDays(fromDay: days.lowerBound, toDay: days.upperBound) where days.contains(side.day) { out[side.day] = side }
        let missing = days.filter { out[$0] == nil }
        guard let first = missing.first, let last = missing.last else { return out }
        let window = LocalDays.utcBounds(firstDay: first, lastDay: last)
        var byDay: [Int64: [Measurement]] = [:], checksByDay: [Int64: [Measurement]] = [:]
        for r in try source.glucose(fromUTC: window.from, toUTC: window.to) { byDay[LocalDays.day(r.start, r.utcOffset), default: []].append(r) }
        for r in try source.checks(fromUTC: window.from, toUTC: window.to) { checksByDay[LocalDays.day(r.start, r.utcOffset), default: []].append(r) }
        // A day without CGM readings shows its finger-stick checks' numbers (a meter user's days).
        for day in missing { out[day] = DayViewBuilder.side(day: day, readings: byDay[day] ?? checksByDay[day] ?? []) }
        return out
    }

    /// The AGP of local days `firstDay...lastDay`.
    public func agp(firstDay: Int64, lastDay: Int64) throws -> AGPView {
        let window = LocalDays.utcBounds(firstDay: firstDay, lastDay: lastDay)
        let readings = try source.glucose(fromUTC: window.from, toUTC: window.to)
        return AGPBuilder.build(subject: subject, firstDay: firstDay, lastDay: lastDay, readings: readings, unit: settings.unit)
    }

    /// The bands the settings ask for, else those the readings of `day` were classified with (seeds when unknown).
    public func bands(around day: Int64) throws -> ChartBands {
        if let s = settings.scheme { return ChartBands(scheme: s) }
        let window = LocalDays.utcBounds(firstDay: day, lastDay: day)
        return ChartBands(scheme: ChartBands.detectPreset(try source.glucose(fromUTC: window.from, toUTC: window.to)) ?? .seeds)
    }

    /// The day table of local days `firstDay...lastDay`.
    public func dayTable(firstDay: Int64, lastDay: Int64, filter: DayTable.Filter = .init()) throws -> DayTable {
        DayTable(subject: subject, firstDay: firstDay, lastDay: lastDay, unit: settings.unit,
                 rows: try source.dayRows(fromDay: firstDay, toDay: lastDay), filter: filter)
    }
}
