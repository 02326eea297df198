import CSerialPort
import Foundation
import HealthPipeCore

/// A real pseudo-terminal pair standing in for a Nano 33 BLE on USB serial (or a ble-serial
/// bridge): the "Arduino" writes into the master; the source opens the slave through a stable
/// symlink, as ble-serial's /tmp/ttyBLE is. Unplugging closes both ends and removes the link,
/// so the device really vanishes; plugging in again makes a new pty behind the same link.
final class EmulatedArduino: @unchecked Sendable {
    let link: String
    private var master: Int32 = -1
    private var slave: Int32 = -1
    private(set) var bytesWritten: Int64 = 0

    init(link: String) { self.link = link }

    func plugIn() throws {
        var name = [CChar](repeating: 0, count: 256)
        guard hp_openpty_raw(&master, &slave, &name, name.count) == 0 else {
            throw InputError(file: link, reason: "openpty failed: \(String(cString: strerror(errno)))")
        }
        try? FileManager.default.removeItem(atPath: link)
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    }

    /// Writes text as the firmware prints it (blocking when the reader falls behind, like USB CDC).
    func print(_ text: String) {
        var t = text
        t.withUTF8 { _ = hp_write_all(master, $0.baseAddress, $0.count) }
        bytesWritten += Int64(text.utf8.count)
    }

    func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = hp_write_all(master, $0.baseAddress, $0.count) }
        bytesWritten += Int64(bytes.count)
    }

    /// Waits until the reader has taken `total` bytes (so an unplug cuts the stream exactly where
    /// the test wants it, not inside the kernel buffer). Gives up after `limit` seconds.
    func waitUntilRead(_ meter: ProgressMeter, total: Int64, limit: Double = 30) {
        let deadline = Date().addingTimeInterval(limit)
        while meter.fraction.done < total, Date() < deadline { usleep(2_000) }
    }

    func unplug() {
        if master >= 0 { close(master) }
        if slave >= 0 { close(slave) }
        master = -1
        slave = -1
        try? FileManager.default.removeItem(atPath: link)
    }

    deinit { unplug() }
}
