import Foundation
import HealthPipeCore

/// Apple Health export → records. Reads export.zip straight from the archive (streaming
/// extraction, nothing unpacked to disk) or an unpacked export.xml, through `PrologFilter` into a
/// libxml2 SAX push parser in 256 KiB chunks (plain records read without it: `PlainRecordReader`);
/// memory stays flat whatever the export's size.
final class AppleHealthSource: Source, InputDescribing {
    static let format = "apple-health"
    static let chunkSize = 256 << 10

    let options: AppleHealthOptions
    var inputPaths: [String] { [options.path] }
    /// Off, every byte goes to libxml2: the tests compare the two ways on every export they have.
    var readsPlainRecords = true
    var chunkSize = AppleHealthSource.chunkSize

    init(options: AppleHealthOptions) { self.options = options }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        let input = try ExportInput(path: options.path)
        let index = context.registerInput(InputFileInfo(path: options.path, format: Self.format, size: input.fileSize))
        context.progress.addExpected(input.xmlSize)

        let handler = ExportHandler(options: options)
        let parser = RecoveringParser(handler: handler, entryName: input.entryName, readsPlainRecords: readsPlainRecords)
        var filter = PrologFilter()
        filter.declareUTF8 = input.transcoded
        let hasher = HashBox()
        var rejected: Int64 = 0

        func drain() throws {
            for error in handler.rejects {
                rejected += 1
                try context.reject(error)
            }
            handler.rejects.removeAll(keepingCapacity: true)
            for batch in handler.ready { try emit(batch) }
            handler.ready.removeAll(keepingCapacity: true)
        }
        defer {
            context.finishInput(index, rows: handler.elementsRead, measurements: handler.measurements, events: handler.events,
                                rejected: rejected, hash: hasher.hex)
            context.finishRows(index, handler.tally)
        }

        var stopped = false
        do {
            try input.readAhead(chunkSize: chunkSize, hasher: hasher) { chunk in
                context.progress.advance(Int64(chunk.count))
                filter.feed(chunk) { parser.feed($0) }
                try drain()
                if context.shouldStop { stopped = true }
                return !parser.ended && !stopped
            }
        } catch is ReadInterrupted { stopped = true }
        if !stopped {
            // End of input: release a head still buffered, then tell libxml2 the document ended
            // (a truncated file reports its premature end here).
            filter.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { parser.feed($0) }
            parser.finish()
        }
        try handler.finish(drain: drain)
        // Route files and ECGs, once every workout has named its routes.
        if !stopped { try SideFiles(options: options, input: input, links: handler.side.routeLinks).read(context: context, emit: emit) }
        if let error = parser.fatal {
            rejected += 1
            handler.tally.count(handler.tally.untyped, .quarantined)
            let where_ = input.entryName.map { " (\($0) in the zip)" } ?? ""
            try context.reject(RowError(file: options.path, line: Int64(error.line),
                                        reason: "the XML\(where_) cannot be read past line \(error.line): \(Self.explain(error.message)); "
                                            + "every complete record before it was imported",
                                        raw: ""))
        }
        let notModelled = handler.tally.counts.filter { ElementTypes.notModelled.contains($0.type) }
        if !notModelled.isEmpty {
            context.warn("\(options.path): not imported: " + notModelled.map { "\($0.skipped) \($0.type)" }.joined(separator: ", "))
        }
    }

    /// libxml2's message, plus what it means for a Health export.
    static func explain(_ message: String) -> String {
        // "tag mismatch: Record line 9 and Recrd", "Premature end of data in tag Record line 5": libxml2's
        // line of the open tag counts from where that parser started, without the records read plainly
        // (`PlainRecordReader`); the reason names the element's lines from the whole file instead.
        let message = message.replacingOccurrences(of: #"(mismatch: \S+|in tag \S+) line \d+"#, with: "$1", options: .regularExpression)
        if message.contains("Entity") && message.contains("not defined") {
            return message + " (entities are never expanded: the DOCTYPE is not read)"
        }
        let truncated = ["Premature end", "EndTag", "end of data", "Couldn't find end"]
        if truncated.contains(where: { message.contains($0) }) { return message + " (the file is truncated?)" }
        return message
    }
}
