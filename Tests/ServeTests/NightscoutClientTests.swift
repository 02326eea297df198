import Foundation
import Testing

/// Clients that read Nightscout get back what was uploaded: the PyPI libraries py-nightscout and
/// python-nightscout (scripts/setup.sh installs them) read entries and treatments from the real
/// server, and `python/read_back.py` compares them with the upload.
@Suite struct NightscoutClientTests {
    typealias S = NightscoutSupport

    @Test func pythonClientsReadBackWhatWasUploaded() throws {
        let db = S.database()
        let server = try S.server(db)
        // Recent documents: a client without a query reads Nightscout's default window (the last days).
        let now = (Int64(Date().timeIntervalSince1970) / 60 - 30) * 60
        func iso(_ s: Int64) -> String {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f.string(from: Date(timeIntervalSince1970: TimeInterval(s)))
        }
        let directions = ["Flat", "FortyFiveUp", "SingleUp", "Flat", "FortyFiveDown", "Flat"]
        let entries: [[String: Any]] = (0..<6).map { i in
            ["type": "sgv", "sgv": 100 + i * 7, "date": (now + Int64(i) * 300) * 1000, "dateString": iso(now + Int64(i) * 300),
             "direction": directions[i], "device": "xDrip-DexcomG6"]
        }
        let treatments: [[String: Any]] = [
            ["eventType": "Meal Bolus", "created_at": iso(now + 60), "insulin": 4.5, "carbs": 45, "enteredBy": "loop://iPhone"],
            ["eventType": "Correction Bolus", "created_at": iso(now + 900), "insulin": 1.25, "enteredBy": "loop://iPhone"],
            ["eventType": "Temp Basal", "created_at": iso(now + 1200), "duration": 30, "absolute": 0.8, "rate": 0.8, "enteredBy": "loop://iPhone"],
            ["eventType": "BG Check", "created_at": iso(now + 1500), "glucose": 6.1, "units": "mmol", "enteredBy": "xdrip"],
        ]
        for (path, docs) in [("/api/v1/entries", entries), ("/api/v1/treatments", treatments)] {
            let r = try S.send(server, path, JSONSerialization.data(withJSONObject: docs))
            #expect(r.status == 200, "\(r.text)")
        }
        let uploaded = ServeProcess.tempDir().appendingPathComponent("uploaded.json")
        try JSONSerialization.data(withJSONObject: ["entries": entries, "treatments": treatments]).write(to: uploaded)
        let p = Process(), out = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", ServeProcess.packageRoot.appendingPathComponent("Tests/ServeTests/python/read_back.py").path,
                       server.base, S.secret, uploaded.path]
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
        #expect(text.hasSuffix("ok\n"), "\(text)")
        #expect(server.stop() == 0)
    }
}
