import Foundation
import HealthPipeCore
import JSONFormats

/// FIT files (`.fit`) as Garmin watches and bike computers — and Wahoo, COROS, Stryd, Zwift, Strava —
/// write them: activity files (sessions as exercise events, `record` time series, the route) and
/// monitoring files (heart rate and steps per interval), decoded by FITDecoder. Found by content:
/// a FIT header says ".FIT" at byte 8. Every data message is a row: stored, skipped under its
/// message's name (device_info, event, lap, hrv, …: not data this import keeps), or quarantined with
/// its bytes as hex and a reason (a damaged file, bytes that are no whole message, a time that is
/// not a date). Times are UTC; the local offset is --timezone's, else the file's own
/// (`local_timestamp`), else UTC with a warning.
final class GarminFITSource: Source, InputDescribing {
    static let format = "garmin-fit"
    let path: String
    let zone: TimeZone?
    let subject: Symbol
    var inputPaths: [String] { [path] }

    init(path: String, zone: TimeZone?, subject: Symbol) {
        self.path = path
        self.zone = zone
        self.subject = subject
    }

    /// Rows of one message type: stored, skipped, quarantined.
    private struct Tally { var stored: Int64 = 0, skipped: Int64 = 0, quarantined: Int64 = 0 }

    func run(context: StageContext, emit: (RecordBatch) throws -> Void) throws {
        var input = try ByteInput.open(path)
        if input.kind == .stream {
            // Two passes (the CRC before any record is stored): a pipe is read into memory first.
            var all: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while case let n = try chunk.withUnsafeMutableBytes({ try input.read(into: $0) }), n > 0 { all += chunk[..<n] }
            ByteInput.provide(all, as: path)
            input = try ByteInput.open(path)
        }
        let index = context.registerInput(InputFileInfo(path: path, format: Self.format, size: input.size))
        context.progress.addExpected(input.size)
        let scan = try FITScan(FITBytes(input: input))
        try input.rewind()

        let bytes = FITBytes(input: input)
        bytes.onRead = { context.progress.advance(Int64($0)) }
        var mapper = FITRecordMapper(subject: subject, file: Symbol(path), zone: zone)
        var out = RecordBatcher()
        var tallies: [UInt16: Tally] = [:]
        var messages: Int64 = 0, rejected: Int64 = 0, problems: Int64 = 0
        var currentSection = -1, unplaced = false
        defer {
            context.finishInput(index, rows: messages + problems, measurements: out.measurements, events: out.events,
                                rejected: rejected + problems, hash: bytes.hasher.finalize())
        }
        func reject(_ reason: String, at offset: Int64, hex: String) throws {
            try context.reject(RowError(file: path, line: offset, reason: "byte \(offset): \(reason)", raw: hex))
        }
        var decoder = FITDecoder()
        try decoder.run(bytes, message: { m in
            if m.section != currentSection {
                if currentSection >= 0 { mapper.finish(into: &out) }
                currentSection = m.section
                mapper.begin(offset: scan.offsets[m.section])
                if mapper.lacksOffset { unplaced = true }
            }
            messages += 1
            var tally = tallies[m.global] ?? Tally()
            defer { tallies[m.global] = tally }
            if let damage = scan.damage[m.section] {
                tally.quarantined += 1
                rejected += 1
                try reject("\(FITProfile.messageName(m.global)) message of a FIT file whose bytes do not check out: \(damage)",
                           at: m.offset, hex: FITBytes.hex(m.data))
                return
            }
            do {
                if try mapper.map(m, into: &out) { tally.stored += 1 } else { tally.skipped += 1 }
            } catch let r as FITRecordMapper.Reject {
                tally.quarantined += 1
                rejected += 1
                try reject(r.reason, at: m.offset, hex: FITBytes.hex(m.data))
            }
            try out.flushIfFull(emit)
        }, section: { s in
            if s.truncated {
                context.warn("\(path): FIT file \(s.index + 1) is cut off (the input ends before its CRC): its \(s.messages) whole message(s) were read unchecked")
            }
        }, problem: { p in
            problems += 1
            try reject(p.reason, at: p.offset, hex: p.hex)
        })
        mapper.finish(into: &out)
        try out.flush(emit)
        if unplaced {
            context.warn("\(path): the FIT file does not say the wearer's local time (no local_timestamp): its records are placed at UTC; give --timezone")
        }
        let types = tallies.sorted { $0.key < $1.key }.map { key, t in
            RowTypeCount(type: FITProfile.messageName(key), stored: t.stored, quarantined: t.quarantined, skipped: t.skipped)
        } + (problems > 0 ? [RowTypeCount(type: "bytes that are no whole message", quarantined: problems)] : [])
        context.finishRows(index, stored: tallies.values.reduce(0) { $0 + $1.stored }, skipped: tallies.values.reduce(0) { $0 + $1.skipped },
                           types: types)
    }

    /// A FIT file header: size 12 or 14, ".FIT" at byte 8.
    static func isFIT(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 12 && (prefix[0] == 12 || prefix[0] == 14) && prefix[8...11].elementsEqual(".FIT".utf8)
    }
}

public let garminFITComponent = ComponentDescriptor(
    name: GarminFITSource.format, role: .source, family: "Wearables",
    summary: """
        FIT activity and monitoring files (Garmin, Wahoo, COROS, Stryd, Zwift, Strava), found by their header: sessions \
        become exercise events (sport, duration, distance, energy, heart rate), records heart_rate, speed, cadence, power, \
        altitude and the route; monitoring files heart_rate and step_count per interval. Damaged files are quarantined \
        (CRC). See docs/formats.md.
        """,
    options: [
        OptionDoc("path", "path", required: true, "the .fit file (`-` for standard input)"),
        OptionDoc("timezone", "IANA zone or ±HH:MM", default: "the file's local_timestamp, else UTC",
                  "the wearer's zone: the local day of each record (the file's times are UTC)"),
        OptionDoc("subject", "text", default: "the run's --subject", "whose data this is"),
    ],
    produces: [.measurements, .events, .routes],
    detect: { GarminFITSource.isFIT($0.prefix) ? 95 : 0 },
    build: { b in
        GarminFITSource(path: b.path(try b.required("path")), zone: try b.zone(b.value("timezone")),
                        subject: Symbol(try b.value("subject") ?? b.settings.subject))
    })
