@testable import Charts
import HealthPipeAnalytics
import HealthPipeCore
import Testing

@Suite struct DayViewTests {
    let day = Fixture.day("2024-03-10")

    /// Readings every 5 minutes over days day-4 … day+4, each day at its own level, UTC+1.
    func week() -> [Measurement] {
        var out: [Measurement] = []
        for d in (day - 4)...(day + 4) {
            let level = 100 + Double(d - day) * 10
            for i in 0..<288 {
                let local = d * 86_400 + Int64(i) * 300
                // Within the day: level − 20 … level + 20 and back.
                let v = level + (i < 144 ? Double(i) : Double(288 - i)) * 40 / 144 - 20
                out.append(Fixture.reading(local - 3600, v, offset: 3600))
            }
        }
        return out
    }

    func events() -> [Event] {
        let s = Fixture.subject
        let at = { (h: Int64, m: Int64) in self.day * 86_400 + h * 3600 + m * 60 - 3600 }
        return [
            Event(subject: s, kind: .meal, source: Symbol("app"), start: at(7, 40), utcOffset: 3600, carbs: 45, protein: 12, fat: 8,
                  note: "Porridge <with> \"berries\""),
            Event(subject: s, kind: .exercise, subtype: Symbol("HKWorkoutActivityTypeHighIntensityIntervalTraining"), source: Symbol("watch"),
                  start: at(17, 0), end: at(17, 45), utcOffset: 3600, intensity: Symbol("heavy")),
            Event(subject: s, kind: .insulin, subtype: InsulinKinds.bolus, source: Symbol("pen"), start: at(7, 35), utcOffset: 3600, insulin: 4.5),
            Event(subject: s, kind: .insulin, subtype: InsulinKinds.basal, source: Symbol("pen"), start: at(22, 0), utcOffset: 3600, insulin: 18),
            Event(subject: s, kind: .episode, subtype: Symbol("illness"), source: Symbol("app"), start: at(-30, 0), end: at(30, 0), utcOffset: 3600),
            // The next day's meal is not this day's.
            Event(subject: s, kind: .meal, source: Symbol("app"), start: at(24, 30), utcOffset: 3600, carbs: 20),
        ]
    }

    func loader(_ settings: ViewSettings = ViewSettings()) -> ChartLoader {
        var s = settings
        s.model = nil
        s.today = day + 2
        return ChartLoader(source: MemorySource(readings: week(), events: events()), subject: "t", settings: s)
    }

    @Test func sideViewsHoldMinMeanMaxOfTheThreeDaysEachSide() throws {
        let v = try loader().dayView(day)
        #expect(v.previous.map(\.day) == [day - 3, day - 2, day - 1])
        #expect(v.next.map(\.day) == [day + 1, day + 2, day + 3])
        for side in v.previous + v.next {
            let level = 100 + Double(side.day - day) * 10
            #expect(side.count == 288)
            #expect(side.min == level - 20)
            #expect(side.max == level + 20)
            #expect(abs(side.mean! - level) < 1e-9)
        }
        #expect(v.points.count == 288)
        #expect(v.points.first!.minute == 0)
        #expect(v.navigation.previous == day - 1 && v.navigation.next == day + 1 && v.navigation.today == day + 2)
        #expect(v.navigation.first == day - 4 && v.navigation.last == day + 4)
    }

    @Test func markersCarryEveryDetailTheSeedsShow() throws {
        let v = try loader().dayView(day)
        #expect(v.markers.map(\.kind) == [.insulin, .meal, .exercise, .insulin])
        let meal = v.markers[1]
        #expect(meal.detail == "Porridge <with> \"berries\" at 07:40: carbs 45 g, protein 12 g, fat 8 g")
        let exercise = v.markers[2]
        #expect(exercise.detail == "High Intensity Interval Training at 17:00: 45min, heavy intensity")
        #expect(v.markers[0].detail == "Bolus insulin at 07:35: 4.5 U")
        #expect(v.markers[3].detail == "Basal insulin at 22:00: 18 U")
        #expect(v.episodes.map(\.name) == ["illness"])

        let json = v.json().jsonObject
        #expect(json["schema"] as? String == "healthpipe.chart.day")
        #expect(json["version"] as? Int == 1)
        let events = json["events"] as! [[String: Any]]
        #expect(events.count == 4)
        #expect(events[1]["protein_g"] as? Double == 12)
        #expect(events[2]["duration_minutes"] as? Double == 45)
        #expect(events[3]["type"] as? String == "basal")
    }

    @Test func basalIsHiddenWhenTheSettingSaysSo() throws {
        var s = ViewSettings()
        s.showBasal = false
        let v = try loader(s).dayView(day)
        let events = v.json().jsonObject["events"] as! [[String: Any]]
        #expect(events.count == 3)
        #expect(!events.contains { $0["type"] as? String == "basal" })
        let svg = DaySVG(view: v).document()
        #expect(!svg.contains("class=\"event basal\""))
        #expect(svg.contains("class=\"event bolus\""))
        // On the page a checkbox decides, so the basal marker is there.
        #expect(DaySVG(view: v, inPage: true).element().contains("class=\"event basal\""))
    }

    @Test func unitsAndAxes() throws {
        var s = ViewSettings()
        s.unit = .mgdL
        let mg = try loader(s).dayView(day).json().jsonObject
        let y = mg["y"] as! [String: Any]
        #expect(y["max"] as? Double == 360)
        #expect(y["ticks"] as? [Double] == [0, 72, 144, 216, 288, 360])
        let mmol = try loader().dayView(day).json().jsonObject
        #expect((mmol["y"] as! [String: Any])["ticks"] as? [Double] == [0, 4, 8, 12, 16, 20])
        let x = mmol["x"] as! [String: Any]
        #expect((x["ticks"] as! [[String: Any]]).map { $0["label"] as! String } == ["00:00", "06:00", "12:00", "18:00", "24:00"])
        let first = (mmol["series"] as! [[String: Any]])[0]
        #expect(first["value"] as? Double == ((80.0 / 18.0156) * 100).rounded() / 100)
        #expect(first["time"] as? String == "2024-03-10T00:00:00")
    }

    @Test func bandsAreThePresetInUseWithTextLabels() {
        let seeds = ChartBands(scheme: .seeds)
        #expect((0..<3).map { seeds.rangeText($0, unit: .mmolL) } == ["< 4.0", "4.0–10.0", "> 10.0"])
        #expect((0..<3).map { seeds.rangeText($0, unit: .mgdL) } == ["< 72", "72–180", "> 180"])
        let consensus = ChartBands(scheme: .consensus)
        #expect((0..<5).map { consensus.rangeText($0, unit: .mgdL) } == ["< 54", "54–69", "70–180", "181–250", "> 250"])
        #expect((0..<5).map { consensus.rangeText($0, unit: .mmolL) } == ["< 3.0", "3.0–3.8", "3.9–10.0", "10.1–13.9", "> 13.9"])
        #expect(consensus.bands.map(\.title) == ["Very low", "Low", "In range", "High", "Very high"])
        // Low and high never share a hue family with each other, and each band has a distinct fill.
        #expect(Set(consensus.bands.map(\.fill)).count == 5)

        let labelled = [Fixture.reading(0, 60, band: "low"), Fixture.reading(300, 100, band: "in_range"), Fixture.reading(600, 200, band: "high")]
        #expect(ChartBands.detectPreset(labelled)?.name == "range")
        let consensusLabels = [Fixture.reading(0, 60, band: "low"), Fixture.reading(300, 50, band: "very_low")]
        #expect(ChartBands.detectPreset(consensusLabels)?.name == "consensus")
        #expect(ChartBands.detectPreset([Fixture.reading(0, 60)]) == nil)
    }

    @Test func textFromTheDataIsEscapedInSVG() throws {
        let svg = DaySVG(view: try loader().dayView(day)).document()
        #expect(svg.contains("Porridge &lt;with&gt; &quot;berries&quot;"))
        #expect(!svg.contains("<with>"))
    }

    @Test func exerciseNames() {
        #expect(DayViewBuilder.exerciseName("HKWorkoutActivityTypeRunning") == "Running")
        #expect(DayViewBuilder.exerciseName("cycling") == "Cycling")
        #expect(DayViewBuilder.exerciseName("") == "")
    }
}
