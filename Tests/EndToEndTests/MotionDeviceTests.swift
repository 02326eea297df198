import CSerialPort
import Foundation
import Testing

/// `healthpipe stream --device` on a real pseudo-terminal: the binary opens the slave (through a
/// symlink, like ble-serial's /tmp/ttyBLE) while this test plays the Arduino on the master.
@Suite struct MotionDeviceTests {
    /// A raw pseudo-terminal: the test writes to `master`, the binary opens `device` (the slave's name).
    static func openPseudoTerminal() throws -> (master: Int32, slave: Int32, device: String) {
        var master: Int32 = -1, slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        try #require(hp_openpty_raw(&master, &slave, &name, name.count) == 0)
        return (master, slave, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    func line(_ v: Double...) -> String { v.map { String(format: "%.3f", $0) }.joined(separator: ",") + "\n" }

    @Test func streamFromADeviceStoresTheSession() throws {
        let dir = E2E.tempDir()
        let (master, slave, device) = try Self.openPseudoTerminal()
        defer { close(master); close(slave) }
        let link = dir.appendingPathComponent("ttyBLE").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: device)
        var text = "aX,aY,aZ,gX,gY,gZ\n"
        for i in 0..<(119 * 8) {  // 8 s of strokes at 119 Hz…
            let t = Double(i) / 119
            text += line(0.2 + 0.6 * sin(2 * .pi * 4 * t), 0.3, 0.933 + 0.15 * cos(2 * .pi * 4 * t), 90, 0, 0)
        }
        for _ in 0..<(119 * 4) { text += line(0.2, 0.3, 0.933, 0, 0, 0) }  // …then 4 s at rest
        text += "\u{01}\u{02}garbage\n"
        // Written before the binary starts: the pty holds it (the write blocks if the buffer fills,
        // so it runs on its own thread) until the binary opens the device and drains it.
        let payload = text, fd = master
        let writer = Thread {
            var t = payload
            t.withUTF8 { _ = hp_write_all(fd, $0.baseAddress, $0.count) }
        }
        writer.start()
        let db = dir.appendingPathComponent("b.sqlite")
        let r = try E2E.run(["stream", "--device", link, "--baud", "115200", "--exit-idle", "1", "--db", db.path,
                             "--idle", "2", "--device-name", "nano33"])
        #expect(r.code == 3, "\(r.stderr)")
        #expect(r.stderr.contains("(idle)"))
        #expect(E2E.query(db, "SELECT device, end_reason, samples > 900 FROM motion_sessions") == [["nano33", "idle", "1"]])
        let quarantine = try String(contentsOf: dir.appendingPathComponent("b.quarantine.ndjson"), encoding: .utf8)
        #expect(quarantine.contains("control or non-ASCII byte"))
    }

    @Test func ctrlCEndsALiveStreamNormallyAndKeepsTheOpenSession() throws {
        let dir = E2E.tempDir()
        let (master, slave, device) = try Self.openPseudoTerminal()
        defer { close(master); close(slave) }
        var text = ""
        for i in 0..<(119 * 5) {
            let t = Double(i) / 119
            text += line(0.6 * sin(2 * .pi * 4 * t), 0, 1, 0, 0, 0)
        }
        let db = dir.appendingPathComponent("b.sqlite")
        let p = Process()
        p.executableURL = E2E.binary
        p.arguments = ["stream", "--device", device, "--db", db.path, "--timezone", "UTC"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        text.withUTF8 { _ = hp_write_all(master, $0.baseAddress, $0.count) }
        // Wait (bounded) until the binary has drained the pty, then press Ctrl-C.
        var queued: Int32 = 1
        for _ in 0..<500 where queued > 0 {
            usleep(10_000)
            _ = ioctl(master, UInt(TIOCOUTQ), &queued)
        }
        usleep(300_000)
        p.interrupt()
        // Bounded: a binary that ignored Ctrl-C must fail the test, not hang it.
        for _ in 0..<2000 where p.isRunning { usleep(10_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        #expect(p.terminationReason == .exit)
        #expect(p.terminationStatus == 0)
        #expect(E2E.query(db, "SELECT end_reason, samples FROM motion_sessions") == [["end", "594"]])
    }
}
