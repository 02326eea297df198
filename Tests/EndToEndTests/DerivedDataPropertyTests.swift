import Foundation
import HealthPipeTestSupport
import Testing
import ZIPFoundation

/// The derived-data rule, tried the way people import: real-shaped exports (LibreView with its
/// scans last, CareLink newest first, Clarity, an Apple Health export across a DST change,
/// simglucose with meals and insulin) cut into parts, imported in random order, some twice, some
/// together in one run. Every derived table must equal, row by row, one clean `reaggregate` of the
/// same database and one import of all the files at once.
@Suite struct DerivedDataPropertyTests {
    struct Sample {
        var name: String
        var text: String
        var format: SampleSplitter.Format
        var file: URL
    }

    static let samples: [Sample] = {
        let dir = E2E.tempDir()
        var out: [Sample] = []
        func add(_ name: String, _ text: String, _ format: SampleSplitter.Format) {
            let file = dir.appendingPathComponent(name)
            try! Data(text.utf8).write(to: file)
            out.append(Sample(name: name, text: text, format: format, file: file))
        }
        func read(_ url: URL) -> String { String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        add("libre.csv", read(E2E.samples.appendingPathComponent("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")), .libreView)
        add("carelink.csv", read(E2E.samples.appendingPathComponent("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv")), .careLink)
        add("clarity.csv", read(E2E.samples.appendingPathComponent("dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv")), .clarity)
        // Two patients' first four days: meals and insulin every day.
        let sim = read(E2E.fixtures.appendingPathComponent("reference/simglucose/all.csv")).split(separator: "\n")
        let rows = sim.dropFirst().filter { ($0.contains("adult#001") || $0.contains("child#002")) && $0 < "2024-01-05" }
        add("simglucose.csv", ([sim[0]] + rows).joined(separator: "\n") + "\n", .simglucose)
        let zip = E2E.fixtures.appendingPathComponent("apple-health/generated_2days_dst_export.zip")
        if let archive = try? Archive(url: zip, accessMode: .read, pathEncoding: nil), let entry = archive["apple_health_export/export.xml"] {
            var data = Data()
            _ = try? archive.extract(entry) { data.append($0) }
            add("export.xml", String(decoding: data, as: UTF8.self), .appleXML)
        }
        return out
    }()

    static let extendedSettings = """
        resample: { step_minutes: 5, max_gap_minutes: 45 }
        classify: { preset: consensus }
        daily: { hypo_below: 70, hyper_above: 180, unit: mg/dL }
        predict: { model: ridge-treatments }
        alerts: { low: 70, high: 250, model: ar2 }
        """

    static func importArgs(_ files: [URL], _ db: URL) -> [String] {
        ["import"] + files.map(\.path) + ["--db", db.path, "--timezone", "Europe/London", "--subject", "demo", "--quiet"]
    }

    @Test(arguments: 0..<50)
    func splitImportsEqualOneCleanReaggregateAndOneWholeImport(seed: Int) throws {
        #expect(Self.samples.count == 5, "missing sample or fixture")
        var rng = SplitMix64(seed: UInt64(seed))
        let dir = E2E.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Three of the five formats per seed (every format comes up about thirty times).
        let chosen = Self.samples.shuffled(using: &rng).prefix(3)
        var parts: [URL] = []
        for s in chosen {
            let k = 2 + Int(rng.next() % 3)
            for (i, text) in SampleSplitter(text: s.text, format: s.format).parts(k, using: &rng).enumerated() {
                let url = dir.appendingPathComponent("part\(i)-\(s.name)")
                try Data(text.utf8).write(to: url)
                parts.append(url)
            }
        }
        // Runs of one to three parts, in random order; some parts twice (in different runs).
        var queue = parts.shuffled(using: &rng)
        queue += parts.filter { _ in rng.next() % 4 == 0 }
        queue.shuffle(using: &rng)
        let settings = dir.appendingPathComponent("settings.yml")
        try Data(Self.extendedSettings.utf8).write(to: settings)
        let extended = seed % 3 == 0
        let db = dir.appendingPathComponent("split.sqlite")
        var first = true
        while !queue.isEmpty {
            // One run never names a part twice (that is refused: FileRoles); repeats come in later runs.
            let n = 1 + Int(rng.next() % 3)
            var run: [URL] = []
            while run.count < n, let i = queue.firstIndex(where: { !run.contains($0) }) { run.append(queue.remove(at: i)) }
            let code = InProcess.healthpipe(Self.importArgs(run, db))
            #expect(code == 0 || code == 3, "seed \(seed): import \(run.map(\.lastPathComponent)) exit \(code)")
            if first && extended {
                #expect(InProcess.healthpipe(["reaggregate", "--db", db.path, "--config", settings.path, "--quiet"]) == 0)
            }
            first = false
        }
        let split = DerivedSnapshot(db)
        #expect(split.tables["pending"] == [["0"]], "seed \(seed): days left pending")

        let copy = dir.appendingPathComponent("reaggregated.sqlite")
        try FileManager.default.copyItem(at: db, to: copy)
        #expect(InProcess.healthpipe(["reaggregate", "--db", copy.path, "--quiet"]) == 0)
        let reaggregated = DerivedSnapshot(copy)
        #expect(split.difference(from: reaggregated) == nil,
                "seed \(seed) (\(chosen.map(\.name))): after split imports vs reaggregate: \(split.difference(from: reaggregated) ?? "")")

        let whole = dir.appendingPathComponent("whole.sqlite")
        #expect([0, 3].contains(InProcess.healthpipe(Self.importArgs(chosen.map(\.file), whole))))
        if extended { #expect(InProcess.healthpipe(["reaggregate", "--db", whole.path, "--config", settings.path, "--quiet"]) == 0) }
        let once = DerivedSnapshot(whole)
        #expect(split.difference(from: once) == nil,
                "seed \(seed) (\(chosen.map(\.name))): after split imports vs one import: \(split.difference(from: once) ?? "")")
        #expect(!(split.tables["daily_summaries"] ?? []).isEmpty, "\(split.sizes)")
    }
}
