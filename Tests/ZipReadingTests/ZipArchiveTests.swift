import Foundation
import Synchronization
import Testing
import ZIPFoundation
@testable import ZipReading
import HealthPipeTestSupport

/// ZipArchive reads what a zip writer wrote, and ends every damaged zip in a `ZipError` naming the
/// fault, promptly: a deflate stream cut short used to loop forever (ZIPFoundation's reader), in
/// detection as in import, for export zips, workbooks and Apple's export.zip alike.
@Suite struct ZipArchiveTests {
    static func temporaryPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ZipArchiveTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// A zip written by ZIPFoundation: `a.csv` deflated, `b.txt` stored, a folder.
    static func writtenZip(_ a: [UInt8], _ b: [UInt8]) throws -> String {
        let path = temporaryPath("written.zip")
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        try archive.addEntry(with: "data/", type: .directory, uncompressedSize: Int64(0), provider: { _, _ in Data() })
        try archive.addEntry(with: "data/a.csv", type: .file, uncompressedSize: Int64(a.count), compressionMethod: .deflate,
                             provider: { position, size in Data(a[Int(position)..<Int(position) + size]) })
        try archive.addEntry(with: "b.txt", type: .file, uncompressedSize: Int64(b.count), compressionMethod: .none,
                             provider: { position, size in Data(b[Int(position)..<Int(position) + size]) })
        return path
    }

    static let csv = Array((0..<20_000).map { "2024-01-01 00:\($0 % 60),\($0 % 400)\n" }.joined().utf8)

    @Test func readsWhatAWriterWrote() throws {
        let path = try Self.writtenZip(Self.csv, Array("hello".utf8))
        let zip = try ZipArchive(path: path)
        #expect(zip.entries.map(\.path) == ["data/", "data/a.csv", "b.txt"])
        #expect(zip.entries.map(\.isDirectory) == [true, false, false])
        let a = try #require(zip["data/a.csv"])
        #expect(a.method == 8 && a.uncompressedSize == UInt64(Self.csv.count) && a.compressedSize < a.uncompressedSize)
        #expect(try zip.contents(of: a, limit: 1 << 20) == Self.csv)
        #expect(try zip.contents(of: try #require(zip["b.txt"]), limit: 10) == Array("hello".utf8))
        #expect(try zip.prefix(of: a, limit: 10) == Array(Self.csv.prefix(10)))
        // Small chunks, and a reader that stops early.
        var chunks = 0
        try zip.read(a, chunkSize: 1000) { chunk in
            #expect(chunk.count <= 1000)
            chunks += 1
            return chunks < 3
        }
        #expect(chunks == 3)
        #expect(throws: ZipError.self) { try zip.contents(of: a, limit: 1000) }
    }

    /// Rewrites little-endian fields of a zip's bytes.
    static func patched(_ path: String, _ edits: [(offset: Int, value: UInt32, width: Int)]) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for e in edits { for k in 0..<e.width { bytes[e.offset + k] = UInt8(truncatingIfNeeded: e.value >> (8 * UInt32(k))) } }
        let out = temporaryPath("patched.zip")
        try Data(bytes).write(to: URL(fileURLWithPath: out))
        return out
    }

    /// Offset of the central-directory header of the entry with this name.
    static func centralHeader(_ path: String, _ name: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let needle: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        for i in 0..<(bytes.count - 46) where Array(bytes[i..<i + 4]) == needle {
            let n = Int(bytes[i + 28]) | Int(bytes[i + 29]) << 8
            if String(decoding: bytes[(i + 46)..<(i + 46 + n)], as: UTF8.self) == name { return i }
        }
        throw ZipError.corrupt("no entry \(name)")
    }

    static func expectFault(_ path: String, _ entry: String, _ words: String) throws {
        let zip = try ZipArchive(path: path)
        let e = try #require(zip[entry])
        let started = Date()
        do {
            _ = try zip.contents(of: e, limit: 1 << 30)
            Issue.record("\(entry): read without error")
        } catch let error as ZipError {
            #expect(error.description.contains(words), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aDeflateStreamCutShortIsTruncatedNotAHang() throws {
        let path = try Self.writtenZip(Self.csv, Array("hello".utf8))
        let header = try Self.centralHeader(path, "data/a.csv")
        let zip = try ZipArchive(path: path)
        let half = UInt32(try #require(zip["data/a.csv"]).compressedSize / 2)
        try Self.expectFault(try Self.patched(path, [(header + 20, half, 4)]), "data/a.csv", "ends before its deflate stream does")
    }

    @Test func anEntryLargerThanItsDirectorySaysIsRefused() throws {
        let path = try Self.writtenZip(Self.csv, Array("hello".utf8))
        let header = try Self.centralHeader(path, "data/a.csv")
        try Self.expectFault(try Self.patched(path, [(header + 24, 1000, 4)]), "data/a.csv", "inflates to more than the 1000 bytes")
    }

    @Test func aWrongChecksumIsCorrupt() throws {
        let path = try Self.writtenZip(Self.csv, Array("hello".utf8))
        let header = try Self.centralHeader(path, "b.txt")
        try Self.expectFault(try Self.patched(path, [(header + 16, 0xDEAD_BEEF, 4)]), "b.txt", "fails its CRC check")
        try Self.expectFault(try Self.patched(path, [(header + 8, 1, 2)]), "b.txt", "encrypted")
        try Self.expectFault(try Self.patched(path, [(header + 10, 12, 2)]), "b.txt", "compression method 12")
    }

    @Test func aZipCutAnywhereSaysWhat() throws {
        let path = try Self.writtenZip(Self.csv, Array("hello".utf8))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for cut in [0, 10, 21, bytes.count / 2, bytes.count - 30, bytes.count - 1] {
            let out = Self.temporaryPath("cut.zip")
            try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: out))
            do {
                let zip = try ZipArchive(path: out)
                Issue.record("cut at \(cut): opened with \(zip.entries.count) entries")
            } catch let error as ZipError {
                #expect(error.kind == .truncated, "cut at \(cut): \(error)")
            }
        }
    }

    /// The fuzzer's input that hung the export-zip source for good (Tests/Fixtures/fuzz-regressions).
    @Test func theFuzzersHangingZipEndsInAnError() throws {
        let fixture = Repository.url("Tests/Fixtures/fuzz-regressions/export-zip/truncated-deflate-stream-hang.zip")
        let zip = try ZipArchive(path: fixture.path)
        var faults = 0
        for entry in zip.entries {
            do { _ = try zip.contents(of: entry, limit: 1 << 20) } catch is ZipError { faults += 1 }
        }
        #expect(faults >= 1)
    }

    /// A ZIP64 archive (Apple exports pass 4 GiB): sizes and offset in the extra field, the ZIP64
    /// end record and locator. Built by hand; `unzip -t` accepts it.
    @Test func readsZIP64() throws {
        let content = Array("zip64 entry\n".utf8)
        let crc = UInt32(truncatingIfNeeded: content.withUnsafeBytes { ZipArchive.crc(0, $0) })
        let name = Array("big/export.xml".utf8)
        var z: [UInt8] = []
        func u16(_ v: Int) { z += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: UInt32) { for k in 0..<4 { z.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) } }
        func u64(_ v: UInt64) { for k in 0..<8 { z.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
        u32(0x0403_4B50); u16(45); u16(0); u16(0); u16(0); u16(0); u32(crc); u32(0xFFFF_FFFF); u32(0xFFFF_FFFF)
        u16(name.count); u16(20); z += name
        u16(1); u16(16); u64(UInt64(content.count)); u64(UInt64(content.count))
        z += content
        let cdOffset = z.count
        u32(0x0201_4B50); u16(45); u16(45); u16(0); u16(0); u16(0); u16(0); u32(crc); u32(0xFFFF_FFFF); u32(0xFFFF_FFFF)
        u16(name.count); u16(28); u16(0); u16(0); u16(0); u32(0); u32(0xFFFF_FFFF); z += name
        u16(1); u16(24); u64(UInt64(content.count)); u64(UInt64(content.count)); u64(0)
        let cdSize = z.count - cdOffset
        let eocd64 = z.count
        u32(0x0606_4B50); u64(44); u16(45); u16(45); u32(0); u32(0); u64(1); u64(1); u64(UInt64(cdSize)); u64(UInt64(cdOffset))
        u32(0x0706_4B50); u32(0); u64(UInt64(eocd64)); u32(1)
        u32(0x0605_4B50); u16(0); u16(0); u16(0xFFFF); u16(0xFFFF); u32(0xFFFF_FFFF); u32(0xFFFF_FFFF); u16(0)
        let path = Self.temporaryPath("zip64.zip")
        try Data(z).write(to: URL(fileURLWithPath: path))
        let zip = try ZipArchive(path: path)
        let entry = try #require(zip["big/export.xml"])
        #expect(entry.uncompressedSize == UInt64(content.count))
        #expect(try zip.contents(of: entry, limit: 100) == content)
    }

    /// A zip is read at random: a FIFO with nobody writing (a workbook or export.zip given as
    /// `<(…)`, read once already by format detection) used to block the open for ever; standard
    /// input was "no such file". Both are refused at once, saying that a stream cannot be read.
    @Test func aStreamIsRefusedAtOnceNotAHang() throws {
        let fifo = Self.temporaryPath("export.zip")
        #expect(mkfifo(fifo, 0o600) == 0)
        let opened = DispatchSemaphore(value: 0)
        let message = Mutex("")
        Thread {
            do { _ = try ZipArchive(path: fifo) } catch { message.withLock { $0 = String(describing: error) } }
            opened.signal()
        }.start()
        let prompt = opened.wait(timeout: .now() + 10) == .success
        #expect(prompt, "opening a FIFO nobody writes to blocked")
        if !prompt {  // let the blocked open through so the thread ends
            let w = open(fifo, O_WRONLY | O_NONBLOCK)
            if w >= 0 { close(w) }
            _ = opened.wait(timeout: .now() + 10)
        }
        #expect(message.withLock { $0 }.contains("a pipe or device, not a regular file"))
        #expect(throws: ZipError.self) { try ZipArchive(path: "-") }
        do { _ = try ZipArchive(path: "-") } catch {
            #expect(String(describing: error).contains("standard input is a stream: a zip is read at random"))
        }
    }
}
