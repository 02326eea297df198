import Foundation
import HealthPipeCore
import Testing
@testable import CSVFormats

/// The components' YAML options, decoded strictly: common options, LibreView's `date_order`, and
/// unknown keys reported against both sets.
@Suite struct LibreViewOptionsTests {
    func build(_ component: ComponentDescriptor, _ yaml: String) throws -> any Stage {
        let doc = try ConfigDocument(file: "pipeline.yml", text: yaml, environment: [:])
        return try component.build(ComponentBuilder(stageName: "cgm", document: doc, node: doc.root,
                                                    settings: RunSettings(timezone: "Europe/London", subject: "ann",
                                                                          baseDirectory: "/data")))
    }

    @Test func libreViewDecodesCommonOptionsAndDateOrder() throws {
        let s = try #require(try build(libreViewComponent, "type: libreview\npath: export.csv\ndate_order: mdy\ntimezone: UTC\n")
            as? LibreViewSource)
        #expect(s.dateOrder == .mdy)
        #expect(s.options.path == "/data/export.csv")
        #expect(s.options.zone?.secondsFromGMT() == 0)
        #expect(s.options.subject == Symbol("ann"))
        #expect(s.inputPaths == ["/data/export.csv"])
        let auto = try #require(try build(libreViewComponent, "path: x.csv\ndate_order: auto\n") as? LibreViewSource)
        #expect(auto.dateOrder == nil && auto.options.zone?.identifier == "Europe/London")
        let unset = try #require(try build(libreViewComponent, "path: x.csv\nambiguous_time: later\n") as? LibreViewSource)
        #expect(unset.dateOrder == nil && unset.options.ambiguous == .later)
    }

    @Test func libreViewRejectsUnknownKeysAndBadValues() throws {
        let typo = try #require(throws: ConfigError.self) { try build(libreViewComponent, "path: x.csv\ndate_ordr: dmy\n") }
        #expect(typo.message.contains("unknown option 'date_ordr'") && typo.message.contains("date_order"))
        #expect(typo.message.contains("timezone") && typo.suggestion == "date_order" && typo.line == 2)
        let bad = try #require(throws: ConfigError.self) { try build(libreViewComponent, "path: x.csv\ndate_order: ymd\n") }
        #expect(bad.message.contains("auto, dmy or mdy"))
        #expect(throws: ConfigError.self) { try build(libreViewComponent, "date_order: dmy\n") }  // path is required
    }

    @Test func careLinkDecodesCommonOptions() throws {
        let s = try #require(try build(careLinkComponent, "path: /x/carelink.csv\nsubject: bob\n") as? CareLinkSource)
        #expect(s.options.path == "/x/carelink.csv" && s.options.subject == Symbol("bob"))
        let typo = try #require(throws: ConfigError.self) { try build(careLinkComponent, "path: x.csv\ndate_order: dmy\n") }
        #expect(typo.message.contains("unknown option 'date_order'"))
    }

    @Test func everyOptionIsDocumented() {
        let libre = Set(libreViewComponent.options.map(\.name))
        #expect(libre == ["path", "timezone", "subject", "ambiguous_time", "nonexistent_time", "date_order"])
        #expect(Set(careLinkComponent.options.map(\.name)) == ["path", "timezone", "subject", "ambiguous_time", "nonexistent_time"])
        #expect(libreViewComponent.name == "libreview" && careLinkComponent.name == "medtronic-carelink")
        #expect(libreViewComponent.family == "CSVFormats" && careLinkComponent.family == "CSVFormats")
        #expect(libreViewComponent.role == .source && careLinkComponent.produces == [.measurements, .events])
    }
}
