import Charts
import Foundation
import HealthPipeCore
import Testing

@Suite struct DayTableTests {
    func row(_ day: Int64, hypo: Bool = false, hyper: Bool = false, exercise: Bool = false, fav: Bool = false) -> DayTable.Row {
        DayTable.Row(day: day, readings: 288, low: 60, avg: 120, high: 200, hypo: hypo, hyper: hyper, exercise: exercise,
                     stress: false, illness: false, favourite: fav, note: nil)
    }

    @Test func filtersCombineAsTheSeedsUserExpects() {
        let rows = [row(10, hypo: true), row(11, hypo: true, exercise: true), row(12, hyper: true, fav: true), row(13), row(14, hypo: true, fav: true)]
        var t = DayTable(subject: "t", firstDay: 10, lastDay: 14, unit: .mmolL, rows: rows)
        #expect(t.rows.map(\.day) == [14, 13, 12, 11, 10])
        t.filter = .init(flags: [.hypo])
        #expect(t.shown.map(\.day) == [14, 11, 10])
        t.filter = .init(flags: [.hypo, .exercise])
        #expect(t.shown.map(\.day) == [11])
        t.filter = .init(lastDays: 3)
        #expect(t.shown.map(\.day) == [14, 13, 12])
        t.filter = .init(flags: [.hypo], lastDays: 3)
        #expect(t.shown.map(\.day) == [14])
        t.filter = .init(favouritesOnly: true)
        #expect(t.shown.map(\.day) == [14, 12])
        let json = t.json().jsonObject
        #expect(json["shown_days"] as? Int == 2)
        #expect(json["total_days"] as? Int == 5)
        #expect((json["rows"] as? [[String: Any]])?.map { $0["date"] as! String } == ["1970-01-15", "1970-01-13"])
    }

    @Test func theSVGListsOnlyTheFilteredDays() {
        let t = DayTable(subject: "t", firstDay: 10, lastDay: 14, unit: .mgdL, rows: [row(10, hypo: true), row(11)],
                         filter: .init(flags: [.hypo]))
        let svg = DayTableSVG(table: t, bands: ChartBands(scheme: .seeds)).document()
        #expect(svg.components(separatedBy: "class=\"day-row\"").count - 1 == 1)
        #expect(svg.contains("data-date=\"1970-01-11\""))
        #expect(svg.contains("filter: Hypo"))
    }
}
