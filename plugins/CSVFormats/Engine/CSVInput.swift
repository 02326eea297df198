import HealthPipeCore
import ZipReading

/// A CSV source's input, opened once: UTF-16 with a byte-order mark decoded, its first bytes
/// available (decoded) for guessing the separator, and then read whole by `CSVFileRun` — so a pipe
/// or standard input, which can be read only once, works like a file.
public struct CSVInput {
    let input: ByteInput
    /// The first 64 KiB as UTF-8.
    public let head: FileSniff

    public init(path: String) throws {
        input = try ByteInput.open(path)
        try input.decodeUTF16IfMarked()
        head = FileSniff(path: path, prefix: try input.peek(64 << 10), isRegularFile: input.kind == .regularFile)
        if input.kind == .stream, ZipArchive.hasMagic(head.prefix) {  // a workbook through a pipe: not "no header"
            throw InputError(file: path, reason: "a zip (an Excel workbook?) arriving through a pipe or standard input: "
                             + "a zip is read at random, which a stream cannot be (save it to a file first)")
        }
        try input.refuseUnlessText()
    }

    /// This input, readable twice (a stream is copied to a temporary file); call before reading it.
    func seekable() throws -> CSVInput { CSVInput(input: try input.seekable(text: true), head: head) }

    /// Back to the first byte, for a second pass (after `seekable`).
    func rewind() throws { try input.rewind() }

    private init(input: ByteInput, head: FileSniff) {
        self.input = input
        self.head = head
    }
}
