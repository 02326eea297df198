import HealthPipeCore
import Testing

/// Health values as typed: names and aliases, units converted to the canonical one, every
/// refusal in words that quote what was typed.
@Suite struct HealthValueTextTests {
    func value(_ text: String) throws -> HealthReport.Value { try HealthValueText.parse(text).get() }
    func problem(_ text: String) -> String {
        if case .failure(let p) = HealthValueText.parse(text) { return p.message }
        return "accepted"
    }

    @Test func namesAliasesAndUnits() throws {
        let t = try value("temperature=100.4°F:4")
        #expect(t.metric.text == "body_temperature" && t.unit.text == "degC" && abs(t.value - 38) < 1e-9 && t.importance == 4)
        #expect(try value("systolic=17.3kPa:3").metric.text == "blood_pressure_systolic")
        #expect(abs(try value("systolic=17.3kPa:3").value - 129.76) < 0.01)
        let g = try value("glucose=6.1 mmol/L:3")
        #expect(g.value == 110 && g.unit.text == "mg/dL" && g.flags.contains(.convertedFromMmol))
        #expect(try value("weight=154lb:2").value == 154 * 0.453_592_37)
        #expect(try value("pulse=72bpm:1").unit.text == "count/min")
        #expect(try value("body_temperature=37,8:4").value == 37.8)  // a decimal comma
        let custom = try value("sleep_quality=7:2")
        #expect(custom.metric.text == "sleep_quality" && custom.unit.isEmpty)
        #expect(try value("nap=20min:1").unit.text == "min")
    }

    @Test func refusalsQuoteTheValue() {
        #expect(problem("temperature=38") == "'temperature=38' has no importance: end it with :1 … :5 (e.g. temperature=38:3)")
        #expect(problem("temperature=38:7").hasSuffix("importance 7 is outside 1–5"))
        #expect(problem("temperature=38:high").contains("importance 'high' is not a whole number"))
        #expect(problem("temperature=38K:3").contains("unknown unit 'K' (expected degC, degF, °C, °F)"))
        #expect(problem("pain=11:3").contains("within 0–10 score"))
        #expect(problem("weight=-3:3").contains("cannot be negative"))
        #expect(problem("Body Temp=38:3").contains("is not a health value name"))
        #expect(problem("temperature:3").contains("is not metric=value[unit]:importance"))
        #expect(problem("x=abc:3").contains("'abc' is not a number"))
        #expect(problem("sleep=7parsecs:3").contains("unknown unit 'parsecs'"))
    }

    @Test func typedTimes() throws {
        let rome = try #require(ZoneResolver.timeZone(named: "Europe/Rome"))
        let now = CivilDate.days(fromISO: "2024-03-05")! * 86_400 + 15 * 3600  // 16:00 in Rome
        #expect(LocalTimeText.parse("20:00", zone: rome, now: now)?.utc == now + 4 * 3600)
        #expect(LocalTimeText.parse("2024-03-05 20:00", zone: rome, now: 0)?.offset == 3600)
        #expect(LocalTimeText.parse("2024-07-05T20:00:30", zone: rome, now: 0)?.offset == 7200)
        #expect(LocalTimeText.parse("2024-03-05T20:00:00-05:00", zone: rome, now: 0)?.offset == -18_000)
        #expect(LocalTimeText.parse("now", zone: rome, now: now)?.utc == now)
        #expect(LocalTimeText.parse("5 March", zone: rome, now: now) == nil)
        #expect(LocalTimeText.hasOffset("2024-03-05T20:00:00+01:00") && !LocalTimeText.hasOffset("2024-03-05 20:00"))
        #expect(EntryIDs.make(.report, utc: now, offset: 3600) == "20240305-1600")
        #expect(EntryIDs.make(.insulin, utc: now + 30, offset: 3600) == "insulin-20240305-160030")
    }
}

@Suite struct ShownUnitTests {
    @Test func storedUnitsReadAsPeopleWriteThem() {
        #expect(CanonicalUnits.shown("degC") == "°C")
        #expect(CanonicalUnits.shown("degF") == "°F")
        #expect(CanonicalUnits.shown("count/min") == "/min")
        #expect(CanonicalUnits.shown("mmHg") == "mmHg")
        #expect(CanonicalUnits.shown("") == "")
    }
}
