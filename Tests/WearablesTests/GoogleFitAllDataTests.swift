import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import Wearables

/// Google Fit's `All Data/*.json` (real excerpts in Tests/Fixtures/real/google-fit/All Data; their counts
/// are count.py's, checked by RealCorpusTests): every point stored, skipped as a known type, or quarantined.
@Suite struct GoogleFitAllDataTests {
    static let real = GoogleFitActivityTests.real.appendingPathComponent("All Data")

    static func run(_ file: String, options: String = "timezone: Asia/Kolkata\n") throws -> SourceOutput {
        let path = real.appendingPathComponent(file).path
        #expect(try FitbitSourcesTests.detected(path) == "google-fit-all-data")
        return try FitbitSourcesTests.run("google-fit-all-data", path, options: options)
    }

    @Test func nanosecondEpochsAreFlooredToSeconds() {
        func s(_ t: String) -> Int64? { Array(t.utf8).withUnsafeBytes { GoogleFitAllDataSource.seconds(nanos: $0) } }
        #expect(s("1738156698230507294") == 1_738_156_698)
        #expect(s("1738156690340000000") == 1_738_156_690)
        #expect(s("0") == 0)
        #expect(s("9223372036854775807") == 9_223_372_036 && s("9879815340000000000") == nil)  // past Int64: the fuzzer's crash
        #expect(s("99999999999999999999") == nil && s("-1") == nil && s("1.5e18") == nil && s("") == nil)
    }

    /// The stream's own name first, nothing of Google's id lost, and the names in Google Fit's order.
    @Test func sourceNamesPutTheStreamFirst() {
        let estimate = GoogleFitSourceName.of(dataSource: "derived:com.google.step_count.delta:com.google.android.gms:estimated_steps")
        let merged = GoogleFitSourceName.of(dataSource: "derived:com.google.step_count.delta:com.google.android.gms:merge_step_deltas")
        let app = GoogleFitSourceName.of(dataSource: "derived:com.google.step_count.delta:com.google.android.fit:vivo:V2312:557f82c0f6828d19:top_level")
        #expect(app == "Google Fit: top_level (derived:com.google.step_count.delta:com.google.android.fit:vivo:V2312:557f82c0f6828d19)")
        #expect(GoogleFitSourceName.of(dataSource: "derived:com.google.distance.delta:com.google.android.gms:from_high_accuracy_location<-derived:com.google.location.sample:com.google.android.gms:merge_high_fidelity")
                == "Google Fit: from_high_accuracy_location (derived:com.google.distance.delta:com.google.android.gms<-derived:com.google.location.sample:com.google.android.gms:merge_high_fidelity)")
        #expect(GoogleFitSourceName.of(dataSource: "odd") == "Google Fit: odd")
        let order = [app, merged, estimate, "Google Fit (15 min)", "Google Fit"].sorted()
        #expect(order == ["Google Fit", "Google Fit (15 min)", estimate, merged, app])
    }

    /// Each point spans its nanosecond times (UTC) and its source is the file's data source.
    @Test func stepPointsSpanTheirTimesUnderTheirDataSource() throws {
        let out = try Self.run("derived_com.google.step_count.delta_com.google(1).json")
        #expect(out.quarantineLines.isEmpty)
        #expect(out.measurements.count == 360)
        let first = try #require(out.measurements.first)
        #expect(first.metric == Symbol("step_count") && first.unit == Symbol("count"))
        #expect(first.start == 1_738_156_698 && first.end == 1_738_156_736 && first.utcOffset == 19_800)
        #expect(first.source == Symbol("Google Fit: estimated_steps (derived:com.google.step_count.delta:com.google.android.gms)"))
    }

    @Test func heightInMetresIsStoredInCentimetres() throws {
        let out = try Self.run("derived_com.google.height_com.google.android.g.json")
        let height = try #require(out.measurements.first)
        #expect(height.metric == Symbol("height") && height.unit == Symbol("cm") && (100...250).contains(height.value))
    }

    /// Known types that are not imported are counted as skipped; a source with no points is not an error.
    @Test func knownTypesNotImportedAreSkipped() throws {
        for file in ["derived_com.google.activity.segment_com.google(1).json", "derived_com.google.location.sample_com.google.(2).json",
                     "derived_com.google.internal.sleep_schedule_com.json"] {
            let out = try Self.run(file)
            #expect(out.measurements.isEmpty && out.quarantineLines.isEmpty, "\(file)")
        }
    }

    /// A type HealthPipe does not know is quarantined whole with its reason (the run warns, exit 3),
    /// as is a point without usable times; the others in the file are stored.
    @Test func anUnknownTypeOrABadPointIsQuarantined() throws {
        let dir = try FitbitSourcesTests.folder(["points.json": """
            {
                "Data Source": "derived:com.google.x:a\\u003c-b",
                "Data Points": [
                    {"fitValue":[{"value":{"intVal":12}}],"endTimeNanos":1738156736058456668,"dataTypeName":"com.google.step_count.delta","startTimeNanos":1738156698230507294},
                    {"fitValue":[{"value":{"fpVal":0.5}}],"endTimeNanos":1738156736058456668,"dataTypeName":"com.google.nutrition","startTimeNanos":1738156698230507294},
                    {"fitValue":[{"value":{"intVal":7}}],"endTimeNanos":1738156736058456668,"dataTypeName":"com.google.step_count.delta","startTimeNanos":"soon"},
                    {"fitValue":[{"value":{"intVal":9}}],"endTimeNanos":"1738156836000000000","dataTypeName":"com.google.step_count.delta","startTimeNanos":"1738156800000000000"}
                ]
            }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("points.json").path
        #expect(try FitbitSourcesTests.detected(path) == "google-fit-all-data")
        let out = try FitbitSourcesTests.run("google-fit-all-data", path)
        #expect(out.measurements.map(\.value) == [12, 9])
        #expect(out.measurements.allSatisfy { $0.source == Symbol("Google Fit: a (derived:com.google.x<-b)") })
        #expect(out.quarantineLines.count == 2)
        #expect(out.quarantineLines.contains { $0.contains("com.google.nutrition") })
    }
}
