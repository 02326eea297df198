import Foundation
import HealthPipeTestSupport
import Testing
@testable import HealthPipeCore

/// Inputs (OS reasons, pipes, UTF-16) and outputs (checked before the run, replaced by rename only).
@Suite struct InputOutputTests {
    func temp() -> String {
        let p = FileManager.default.temporaryDirectory.appendingPathComponent("hp-io-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    func transcode(_ bytes: [UInt8], bigEndian: Bool, chunk: Int) -> String {
        var t = UTF16Transcoder(bigEndian: bigEndian)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count { t.transcode(bytes[i..<min(bytes.count, i + chunk)], into: &out); i += chunk }
        t.finish(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The sniff splits its lines by bytes: the same lines as splitting the Characters at line ends.
    @Test func sniffLinesSplitAsCharactersDo() {
        let texts = ["", "a", "a\n", "\n\n", "a\r\nb\rc\nd", "\r\n\r", "x\r", "\r\r\n\n", "é\n\u{301}b\r\n\u{301}", "ï»¿\"a\";b\r\n1;2\r\n"]
        for t in texts {
            let sniff = FileSniff(path: "x", prefix: Array(t.utf8))
            let expected = sniff.text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            #expect(sniff.lines(1000) == expected, "\(t.debugDescription)")
        }
    }

    @Test func utf16DecodesAcrossChunksWithSurrogatePairs() {
        let text = "Glucose 5,5 mmol/L 🩸 café\r\n"
        for chunk in [1, 2, 3, 5, 100] {
            #expect(transcode(Array(text.data(using: .utf16LittleEndian)!), bigEndian: false, chunk: chunk) == text)
            #expect(transcode(Array(text.data(using: .utf16BigEndian)!), bigEndian: true, chunk: chunk) == text)
        }
        // An unpaired surrogate and a dangling byte become U+FFFD, never invalid UTF-8.
        #expect(transcode([0x00, 0xD8, 0x41, 0x00, 0x42], bigEndian: false, chunk: 1) == "\u{FFFD}A\u{FFFD}")
        #expect(UTF16Transcoder.byteOrder(of: [0xFF, 0xFE, 0x41, 0x00]) == false)
        #expect(UTF16Transcoder.byteOrder(of: [0xFF, 0xFE, 0x00, 0x00]) == nil)  // UTF-32LE
    }

    @Test func readErrorsNameTheOSReason() throws {
        let dir = temp()
        #expect(throws: InputError.self) { try ByteInput.open(dir + "/missing.csv") }
        let missing = try #require(throws: InputError.self) { try ByteInput.open(dir + "/missing.csv") }
        #expect(missing.reason.contains("No such file or directory"))
        let folder = try #require(throws: InputError.self) { try ByteInput.open(dir) }
        #expect(folder.reason.contains("is a directory"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: dir + "/b", withDestinationPath: "a")
        let loop = try #require(throws: InputError.self) { try ByteInput.open(dir + "/a") }
        #expect(loop.reason.contains("symbolic link"))
    }

    @Test func aPipeSniffedForItsFormatIsReadWholeByItsSource() throws {
        let fifo = temp() + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = (0..<20_000).map { "line \($0)\n" }.joined()
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            text.utf8CString.withUnsafeBytes { _ = write(fd, $0.baseAddress!, $0.count - 1) }
            close(fd)
        }
        writer.start()
        let sniff = try FileSniff.read(path: fifo, limit: 1000)
        #expect(!sniff.isRegularFile && sniff.prefix.count == 1000)
        let input = try ByteInput.open(fifo)  // the same stream, with the sniffed bytes first
        var all: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while case let n = try input.read(into: buffer), n > 0 { all += buffer[..<n] }
        #expect(String(decoding: all, as: UTF8.self) == text)
    }

    @Test func providedBytesPeekDecodeAndRewind() throws {
        let text = "a,b\nc,d\n"
        ByteInput.provide([0xFE, 0xFF] + Array(text.data(using: .utf16BigEndian)!), as: "/mem/x.csv")
        let input = try ByteInput.open("/mem/x.csv")
        try input.decodeUTF16IfMarked()
        #expect(input.decodedEncoding == "UTF-16BE")
        #expect(try input.peek(3) == Array("a,b".utf8))
        func readAll() throws -> String {
            var out: [UInt8] = []
            let b = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 1)
            defer { b.deallocate() }
            while case let n = try input.read(into: b), n > 0 { out += b[..<n] }
            return String(decoding: out, as: UTF8.self)
        }
        #expect(try readAll() == text)
        try input.rewind()
        #expect(try readAll() == text)
    }

    @Test func outputsThatAreNotRegularFilesAreRefusedBeforeAnyWork() throws {
        let dir = temp()
        try "keep".write(toFile: dir + "/keep.txt", atomically: false, encoding: .utf8)
        let folder = try #require(throws: OutputError.self) { try OutputPath.check(dir, what: "NDJSON output") }
        #expect(folder.reason.contains("is a directory"))
        #expect(FileManager.default.fileExists(atPath: dir + "/keep.txt"))
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        let fifo = try #require(throws: OutputError.self) { try OutputPath.check(dir + "/fifo", what: "report") }
        #expect(fifo.reason.contains("not a regular file"))
        #expect(throws: OutputError.self) { try OutputPath.check("/dev/null", what: "database") }
        #expect(try OutputPath.check("/dev/null", what: "quarantine file", allowNullDevice: true) == "/dev/null")
        let underFile = try #require(throws: OutputError.self) { try OutputPath.check(dir + "/keep.txt/x.ndjson", what: "NDJSON output") }
        #expect(underFile.reason.contains("Not a directory"))
        #expect(try OutputPath.check(dir + "/new/deeper/out.ndjson", what: "NDJSON output") == dir + "/new/deeper/out.ndjson")
        #expect(throws: OutputError.self) { try OutputPath.check("/proc/hp-test.ndjson", what: "quarantine file") }
    }

    @Test func atomicFileReplacesByRenameAndKeepsTheMode() throws {
        let dir = temp(), path = dir + "/out.ndjson"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        let file = try AtomicFile(path: path, what: "NDJSON output")
        try file.write(Array("new\n".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")  // nothing visible before commit
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.ndjson"])
        // A directory put in the target's place meanwhile is never replaced.
        let second = try AtomicFile(path: path, what: "NDJSON output")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: OutputError.self) { try second.commit() }
        #expect(FileManager.default.fileExists(atPath: second.temporaryPath))
    }

    @Test func quarantineCountsOnlyRowsThatAreOnDisk() throws {
        let dir = temp()
        try FileManager.default.createDirectory(atPath: dir + "/q.ndjson", withIntermediateDirectories: false)
        let writer = QuarantineWriter(path: dir + "/q.ndjson")
        #expect(throws: OutputError.self) { try writer.prepare() }
        let context = StageContext.forTesting("t", name: "s", policy: .quarantine, quarantine: writer)
        #expect(throws: OutputError.self) { try context.reject(RowError(file: "f", line: 1, reason: "bad", raw: "x")) }
        #expect(context.quarantined == 0)
    }

    @Test func echoedInputIsCapped() {
        let row = RowError(file: "f", line: 1, reason: "value '" + String(repeating: "9", count: 10 << 20) + "' is not a number",
                           raw: String(repeating: "x", count: 10 << 20))
        #expect(row.reason.utf8.count < 1000 && row.raw.utf8.count < 5000)
        #expect(EchoText.cap("a\u{1}b\u{1B}[31m") == "a\\u{1}b\\u{1b}[31m")
    }
}
