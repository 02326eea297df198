import Foundation
import HealthPipeCore
import HealthPipeTestSupport
import Testing
@testable import Wearables

/// The decoder's rules on FIT files made here byte by byte, for what the real files do not all show:
/// compressed-timestamp headers, `timestamp_16`, both byte orders in one file, developer fields,
/// invalid sentinels, the cumulative step counter and its reset, and damage of every kind.
@Suite struct FITDecoderTests {
    /// A FIT file's bytes: a 14-byte header (with its CRC), the messages, the file CRC.
    struct FITFile {
        var messages: [UInt8] = []

        /// A definition: local type, global number, big-endian or not, fields (number, size, base type), developer field sizes.
        mutating func define(_ local: UInt8, _ global: UInt16, bigEndian: Bool = false, _ fields: [(UInt8, UInt8, UInt8)], developer: [UInt8] = []) {
            messages.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
            messages += [0, bigEndian ? 1 : 0]
            messages += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
            messages.append(UInt8(fields.count))
            for f in fields { messages += [f.0, f.1, f.2] }
            if !developer.isEmpty {
                messages.append(UInt8(developer.count))
                for (i, size) in developer.enumerated() { messages += [UInt8(i), size, 0] }
            }
        }

        mutating func data(_ header: UInt8, _ bytes: [UInt8]) { messages += [header] + bytes }

        func bytes(damageCRC: Bool = false) -> [UInt8] {
            var header: [UInt8] = [14, 0x20, 0x08, 0x08]
            let n = UInt32(messages.count)
            header += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
            header += Array(".FIT".utf8)
            var hc = FITCRC()
            for b in header { hc.add(b) }
            header += [UInt8(hc.value & 0xFF), UInt8(hc.value >> 8)]
            var all = header + messages
            var crc = FITCRC()
            for b in all { crc.add(b) }
            let value = damageCRC ? crc.value ^ 0x0100 : crc.value
            all += [UInt8(value & 0xFF), UInt8(value >> 8)]
            return all
        }
    }

    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }

    /// 2024-05-01 06:00:00 UTC as a FIT time.
    static let t0: UInt32 = UInt32(1_714_543_200 - 631_065_600)

    static func run(_ bytes: [UInt8], options: String = "") throws -> SourceOutput {
        let path = "/fit-test/\(UUID().uuidString).fit"
        ByteInput.provide(bytes, as: path)
        return try FitbitSourcesTests.run("garmin-fit", path, options: options)
    }

    /// A monitoring file: big-endian with a developer field, then little-endian with timestamp_16.
    static func monitoringFile() -> FITFile {
        var f = FITFile()
        f.define(0, 103, [(253, 4, 0x86), (0, 4, 0x86)])  // monitoring_info: timestamp, local_timestamp (UTC+2)
        f.data(0x00, le32(t0) + le32(t0 + 7200))
        f.define(1, 55, bigEndian: true, [(253, 4, 0x86), (27, 1, 0x02), (3, 4, 0x86), (5, 1, 0x00)], developer: [3])
        f.data(0x01, be32(t0 + 60) + [61] + be32(100) + [6] + [9, 9, 9])  // walking total 100
        f.define(2, 55, [(26, 2, 0x84), (27, 1, 0x02), (3, 4, 0x86), (24, 1, 0x0D)])
        let t16 = UInt16((t0 + 120) & 0xFFFF)
        f.data(0x02, [UInt8(t16 & 0xFF), UInt8(t16 >> 8)] + [0xFF] + le32(160) + [0x46])  // no heart rate, walking total 160
        let t16b = UInt16((t0 + 180) & 0xFFFF)
        f.data(0x02, [UInt8(t16b & 0xFF), UInt8(t16b >> 8)] + [72] + le32(30) + [0x06])  // total 30 < 160: a reset, 30 count
        return f
    }

    @Test func monitoringStepsAreTheRiseOfEachTypesTotal() throws {
        let out = try Self.run(Self.monitoringFile().bytes())
        #expect(out.quarantineLines.isEmpty)
        let start = Int64(Self.t0) + 631_065_600
        let hr = out.measurements.filter { $0.metric == Symbol("heart_rate") }
        #expect(hr.map(\.start) == [start + 60, start + 180] && hr.map(\.value) == [61, 72])
        let steps = out.measurements.filter { $0.metric == Symbol("step_count") }
        #expect(steps.map(\.value) == [100, 60, 30])
        #expect(steps.map(\.start) == [start, start + 60, start + 120] && steps.map(\.end) == [start + 60, start + 120, start + 180])
        #expect(out.measurements.allSatisfy { $0.utcOffset == 7200 })
        #expect(steps.allSatisfy { $0.metadata == #"{"activity_type":"walking"}"# })
    }

    @Test func timezoneOptionOverridesTheFilesOffset() throws {
        let out = try Self.run(Self.monitoringFile().bytes(), options: "timezone: America/New_York\n")
        #expect(out.measurements.allSatisfy { $0.utcOffset == -4 * 3600 })
    }

    /// Compressed-timestamp headers count on from the last full timestamp (rolling over its 5 bits);
    /// 0xFF and 0xFFFF are no value.
    @Test func compressedTimestampsAndInvalidValues() throws {
        var f = FITFile()
        f.define(0, 20, [(253, 4, 0x86), (3, 1, 0x02), (6, 2, 0x84)])  // record: timestamp, heart_rate, speed
        f.data(0x00, Self.le32(Self.t0 + 30) + [100, 0xE8, 0x03])  // speed 1.000 m/s
        f.define(1, 20, [(3, 1, 0x02), (6, 2, 0x84)])
        let low = UInt8((Self.t0 + 35) & 0x1F)  // 5 s later: only the low 5 bits are written
        f.data(0x80 | 1 << 5 | low, [0xFF, 0xD0, 0x07])  // heart rate invalid, speed 2.000
        f.data(0x80 | 1 << 5 | UInt8((Self.t0 + 40) & 0x1F), [101, 0xFF, 0xFF])
        let out = try Self.run(f.bytes())
        let start = Int64(Self.t0) + 631_065_600
        let hr = out.measurements.filter { $0.metric == Symbol("heart_rate") }
        let speed = out.measurements.filter { $0.metric == Symbol("speed") }
        #expect(hr.map(\.start) == [start + 30, start + 40] && hr.map(\.value) == [100, 101])
        #expect(speed.map(\.start) == [start + 30, start + 35] && speed.map(\.value) == [1, 2])
        #expect(out.context.warnings.contains { $0.contains("placed at UTC") })
    }

    /// A data message of a local type no definition defined loses the file's framing: the rest of that
    /// FIT file is quarantined with its bytes, the next chained file is read.
    @Test func anUndefinedLocalTypeEndsOnlyItsOwnFile() throws {
        var bad = FITFile()
        bad.define(0, 20, [(253, 4, 0x86), (3, 1, 0x02)])
        bad.data(0x00, Self.le32(Self.t0) + [90])
        bad.data(0x05, [1, 2, 3, 4, 5])
        let good = Self.monitoringFile()
        let out = try Self.run(bad.bytes() + good.bytes())
        #expect(out.quarantined.count == 1)
        #expect((out.quarantined[0]["reason"] as! String).contains("local type 5"))
        #expect((out.quarantined[0]["raw"] as! String).hasPrefix("050102030405"))
        #expect(out.measurements.filter { $0.metric == Symbol("heart_rate") }.count == 3)
    }

    /// Whatever the bytes, the decoder returns: every prefix of a made file and every single-byte
    /// change of it is read or quarantined, never trapped; a changed byte fails a CRC, so nothing of it is stored.
    @Test func everyPrefixAndEveryFlippedByteIsReadOrQuarantined() throws {
        let bytes = Self.monitoringFile().bytes()
        for n in 0..<bytes.count {
            _ = SourceRunner.collect(try SourceRunner.build(#require(FitbitSourcesTests.registry.component(named: "garmin-fit")),
                                                            path: Self.provide(Array(bytes[..<n]))))
        }
        for i in 0..<bytes.count {
            var changed = bytes
            changed[i] ^= 0x5A
            let out = SourceRunner.collect(try SourceRunner.build(#require(FitbitSourcesTests.registry.component(named: "garmin-fit")),
                                                                  path: Self.provide(changed)))
            #expect(out.measurements.isEmpty, "byte \(i)")
        }
    }

    static func provide(_ bytes: [UInt8]) -> String {
        let path = "/fit-test/\(UUID().uuidString).fit"
        ByteInput.provide(bytes, as: path)
        return path
    }

    @Test func baseTypeSentinels() {
        func number(_ bytes: [UInt8], _ type: UInt8, bigEndian: Bool = false) -> Double? {
            bytes.withUnsafeBytes { FITBaseType.of(type)!.number($0, at: 0, bigEndian: bigEndian) }
        }
        #expect(number([0xFF], 0x02) == nil && number([0x7F], 0x01) == nil && number([0x80], 0x01) == -128)
        #expect(number([0xFF, 0x7F], 0x83) == nil && number([0x7F, 0xFF], 0x83, bigEndian: true) == nil)
        #expect(number([0x00, 0x00], 0x8B) == nil && number([0x01, 0x00], 0x8B) == 1)
        #expect(number([0xFF, 0xFF, 0xFF, 0xFF], 0x88) == nil && number([0x00, 0x00, 0x80, 0x3F], 0x88) == 1)
        #expect(number([0x12, 0x34], 0x84, bigEndian: true) == 0x1234 && number([0x12, 0x34], 0x84) == 0x3412)
    }
}
