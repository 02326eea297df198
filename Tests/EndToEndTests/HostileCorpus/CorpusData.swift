import Foundation

/// The real files the hostile cases start from, and small builders for broken variants of them.
enum CorpusData {
    static let clarityURL = E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv")
    static let libreURL = E2E.samples.appendingPathComponent("libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv")
    static let careLinkURL = E2E.samples.appendingPathComponent("medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv")
    static let nightscoutURL = E2E.samples.appendingPathComponent("nightscout/cgm_format_nightscout_entries.csv")
    static let appleXMLURL = E2E.samples.appendingPathComponent("apple-health/healthkit-to-sqlite_tests_export.xml")
    static let appleZipURL = E2E.samples.appendingPathComponent("apple-health/healthkit-to-sqlite_export.zip")

    /// The Clarity sample: line 1 the header, lines 2–12 metadata, lines 13–2160 its 2,148 readings.
    static let clarity = try! Data(contentsOf: clarityURL)
    static let clarityReadings = 2148

    /// The Clarity sample's lines without their line breaks: `lines[k]` is line k + 1.
    static var clarityLines: [Data] {
        var lines = clarity.split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The Clarity sample with its lines changed by `edit`, joined with `ending`.
    static func clarity(ending: String = "\n", _ edit: (inout [Data]) -> Void = { _ in }) -> Data {
        var lines = clarityLines
        edit(&lines)
        return Data(lines.joined(separator: Data(ending.utf8))) + Data(ending.utf8)
    }

    static func text(_ d: Data) -> String { String(decoding: d, as: UTF8.self) }

    /// A sample's lines as text, split on the bytes (Swift treats "\r\n" as one character), with a
    /// CR before each LF removed; join them with `ending` to keep the sample's own line ends.
    static func lines(_ url: URL) throws -> (lines: [String], ending: String) {
        let data = try Data(contentsOf: url)
        let crlf = data.firstIndex(of: 0x0A).map { $0 > data.startIndex && data[$0 - 1] == 0x0D } ?? false
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { raw -> String in
            var bytes = Data(raw)
            if bytes.last == 0x0D { bytes.removeLast() }
            return text(bytes)
        }
        return (lines, crlf ? "\r\n" : "\n")
    }

    // MARK: Apple Health

    static func appleRecord(type: String = "HKQuantityTypeIdentifierHeartRate", unit: String = "count/min", value: String,
                            minute: Int, end: Int? = nil, extra: String = "") -> String {
        let start = String(format: "2024-03-01 %02d:%02d:00 +0000", minute / 60, minute % 60)
        let endText = String(format: "2024-03-01 %02d:%02d:00 +0000", (end ?? minute) / 60, (end ?? minute) % 60)
        return " <Record type=\"\(type)\" sourceName=\"Watch\" unit=\"\(unit)\" startDate=\"\(start)\" endDate=\"\(endText)\" value=\"\(value)\"\(extra)/>\n"
    }

    /// A Health export: `count` good heart-rate records (values 60, 61, …), then `bad` (raw XML,
    /// one element on its own lines), then `count` more. The bad element starts on line `count + 4`.
    static func appleExport(around bad: String, count: Int = 5) -> String {
        var body = ""
        for i in 0..<count { body += appleRecord(value: String(60 + i), minute: i) }
        body += bad
        for i in 0..<count { body += appleRecord(value: String(80 + i), minute: 100 + i) }
        return appleHead + body + "</HealthData>\n"
    }

    static let appleHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-03-02 10:00:00 +0000\"/>\n"

    /// A zip holding `files` (name → bytes), made with Python's zipfile (stored or deflated).
    static func zip(_ files: [(String, Data)], at path: String, deflate: Bool = true) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hp-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var script = "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.\(deflate ? "ZIP_DEFLATED" : "ZIP_STORED"))\n"
        for (i, (name, data)) in files.enumerated() {
            let f = dir.appendingPathComponent("f\(i)")
            try data.write(to: f)
            script += "z.write('\(f.path)', '\(name)')\n"
        }
        script += "z.close()\n"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, path]
        try p.run()
        p.waitUntilExit()
    }
}
