import Foundation
import Testing

/// `import … 2>/dev/full`: the data is committed, but nothing could be reported, so the run does
/// not exit 0 (`StandardError`).
@Suite struct StandardErrorFailureTests {
    static let clarity = E2E.samples.appendingPathComponent("dexcom-clarity/cgmquantify_test_file.csv").path

    func run(_ args: [String], stderr path: String) throws -> Int32 {
        let p = Process()
        p.executableURL = E2E.binary
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle(forWritingAtPath: path)
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    @Test func aReportThatCannotBeWrittenMakesTheRunFail() throws {
        let db = E2E.tempDir().appendingPathComponent("h.db")
        #expect(try run(["import", Self.clarity, "--db", db.path, "--timezone", "UTC"], stderr: "/dev/full") == 1)
        #expect(E2E.count(db, "measurements") == 2148)  // committed all the same
        // The same import with a working stderr exits 0 (and a re-import adds nothing).
        #expect(try run(["import", Self.clarity, "--db", db.path, "--timezone", "UTC"], stderr: "/dev/null") == 0)
        #expect(E2E.count(db, "measurements") == 2148)
    }

    @Test func quarantinedRowsKeepTheirStatus() throws {
        let dir = E2E.tempDir()
        let file = dir.appendingPathComponent("bad.csv")
        var text = try String(contentsOfFile: Self.clarity, encoding: .utf8)
        if !text.hasSuffix("\n") { text += "\n" }
        text += "9999,2016-10-25T03:04:17,EGV,,,,iPhone G6,abc,,,,\n"
        try E2E.write(text, to: file)
        #expect(try run(["import", file.path, "--db", dir.appendingPathComponent("h.db").path, "--timezone", "UTC"], stderr: "/dev/full") == 3)
    }
}
