import Foundation
import Testing

/// `healthpipe import` of a large file into the database the server writes uploads to, at the same
/// time: every upload is answered 200, the import succeeds, and the store then equals the one made by
/// the same import and uploads one after the other (readings, events, daily rows).
@Suite struct ConcurrentImportTests {
    /// Entries of one CGM every 5 minutes from `start` (ms), `count` of them, as Nightscout exports them.
    static func entries(start: Int64, count: Int, device: String, step: Int64 = 300_000) -> String {
        var out = "["
        for i in 0..<count {
            let date = start + Int64(i) * step
            if i > 0 { out += ",\n" }
            out += #"{"type":"sgv","sgv":\#(90 + (i * 7) % 120),"date":\#(date),"device":"\#(device)","direction":"Flat","utcOffset":60}"#
        }
        return out + "]"
    }

    @Test func uploadsDuringAnImportLandAsTheyWouldOneAfterTheOther() throws {
        let dir = ServeProcess.tempDir()
        let start: Int64 = 1_704_067_200_000   // 2024-01-01 UTC
        let big = dir.appendingPathComponent("history.json")
        try Data(Self.entries(start: start, count: 60_000, device: "dexcom").utf8).write(to: big)
        // The uploads: xDrip+'s readings of the same weeks, 2.5 minutes apart from the import's.
        let uploads = (0..<30).map { Self.entries(start: start + 150_000 + Int64($0) * 40 * 300_000, count: 40, device: "xDrip-DexcomG6") }

        let db = dir.appendingPathComponent("served.sqlite").path
        let server = try NightscoutSupport.server(db)
        #expect(try NightscoutSupport.send(server, "/api/v1/entries.json", Data(uploads[0].utf8)).status == 200)
        let importDone = DispatchSemaphore(value: 0)
        final class Code: @unchecked Sendable { var value: Int32 = -1 }
        let code = Code()
        let bigPath = big.path
        Thread.detachNewThread {
            code.value = (try? NightscoutSupport.importFile(bigPath, into: db)) ?? -2
            importDone.signal()
        }
        var statuses: [Int] = [], duringImport = 0
        for body in uploads.dropFirst() {
            statuses.append(try NightscoutSupport.send(server, "/api/v1/entries.json", Data(body.utf8)).status)
            if code.value == -1 { duringImport += 1 }
        }
        importDone.wait()
        #expect(code.value == 0)
        #expect(duringImport > 0, "no upload was answered while the import ran")
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(server.stop() == 0)

        // The same, one after the other, by the CLI alone.
        let sequential = dir.appendingPathComponent("sequential.sqlite").path
        #expect(try NightscoutSupport.importFile(bigPath, into: sequential) == 0)
        for (i, body) in uploads.enumerated() {
            let file = dir.appendingPathComponent("upload-\(i).json")
            try Data(body.utf8).write(to: file)
            #expect(try NightscoutSupport.importFile(file.path, into: sequential) == 0)
        }
        let a = try NightscoutSupport.snapshot(db), b = try NightscoutSupport.snapshot(sequential)
        #expect(a.split(separator: "\n").count > 60_000)
        #expect(a == b)
    }
}
