import HealthPipeCore
@testable import SerialIMU
import Testing

@Suite struct TextDecoderTests {
    func decode(_ text: String, layout: StreamLayout = StreamLayout(), chunk: Int = 1 << 20) -> [DecodeEvent] {
        var d = TextLineDecoder(layout: layout)
        var events: [DecodeEvent] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let end = min(bytes.count, i + chunk)
            bytes[i..<end].withUnsafeBytes { d.feed($0) { events.append($0) } }
            i = end
        }
        d.endOfStream { events.append($0) }
        return events
    }

    func readings(_ e: [DecodeEvent]) -> [RawReading] { e.compactMap { if case .reading(let r) = $0 { r } else { nil } } }
    func bad(_ e: [DecodeEvent]) -> [(Int64, String)] { e.compactMap { if case .bad(let p, let r, _) = $0 { (p, r) } else { nil } } }

    @Test func imuCaptureLinesWithHeaderAndGestureBreaks() {
        let e = decode("aX,aY,aZ,gX,gY,gZ\r\n0.539,0.792,1.814,60.120,-24.231,10.559\r\n\r\n-0.5,0.856,1.972,62.012,-33.752,9.094\r\n")
        let r = readings(e)
        #expect(r.count == 2)
        #expect(r[0].accel == SIMD3<Float>(0.539, 0.792, 1.814))
        #expect(r[0].gyro == SIMD3<Float>(60.120, -24.231, 10.559))
        #expect(r[1].accel.x == -0.5)
        #expect(r.map(\.position) == [2, 4])
        #expect(e.contains { if case .gestureBreak = $0 { true } else { false } })
        #expect(bad(e).isEmpty)
    }

    @Test func splitAnywhereGivesTheSameReadings() {
        let text = String(repeating: "0.100,0.200,1.000,1.0,2.0,3.0\n", count: 50)
        let whole = readings(decode(text))
        for chunk in [1, 2, 7, 31] {
            #expect(readings(decode(text, chunk: chunk)).map(\.accel) == whole.map(\.accel))
        }
        #expect(whole.count == 50)
    }

    @Test func badLinesAreReportedWithTheirLineAndNeverStopTheStream() {
        let text = "ax,ay,az\n0.1,0.2,1.0\n\u{01}\u{7F}junk\n0.1,0.2\nnan,0.2,1.0\n0.1,0.2,40.0\n" + String(repeating: "9", count: 400)
            + "\n0.3,0.2,1.0\n0.1,0.2,1"
        let e = decode(text)
        #expect(readings(e).map(\.accel.x) == [0.1, 0.3])
        let problems = bad(e)
        #expect(problems.map(\.0) == [3, 4, 5, 6, 7, 9])
        #expect(problems[0].1.contains("control"))
        #expect(problems[1].1.contains("2 fields where 3"))
        #expect(problems[2].1.contains("not a number"))
        #expect(problems[3].1.contains("physical range"))
        #expect(problems[4].1.contains("longer than"))
        #expect(problems[5].1.contains("partial line"))
    }

    @Test func tabSeparatedKlipperAndMillisecondVariants() {
        var layout = StreamLayout()
        layout.units = .metersPerSecondSquared
        let klipper = readings(decode("#time,accel_x,accel_y,accel_z\n1.5,0,0,9.80665\n", layout: layout))
        #expect(klipper.count == 1)
        #expect(klipper[0].streamTimeMs == 1500)
        #expect(abs(klipper[0].accel.z - 1) < 1e-6)
        let tms = readings(decode("t_ms\tax\tay\taz\n250\t0.1\t0.2\t0.9\n"))
        #expect(tms[0].streamTimeMs == 250)
        #expect(tms[0].gyro == nil)
    }

    @Test func headerRequiredAndRepeatedHeaders() {
        var layout = StreamLayout()
        layout.header = true
        let e = decode("0.1,0.2,1.0,0,0,0\naX,aY,aZ,gX,gY,gZ\n0.1,0.2,1.0,0,0,0\naX,aY,aZ,gX,gY,gZ\n0.1,0.2,1.0,0,0,0\n", layout: layout)
        #expect(readings(e).count == 2)
        #expect(bad(e).map(\.0) == [1])
    }
}

@Suite struct BinaryDecoderTests {
    func floats(_ v: [Float]) -> [UInt8] { v.flatMap { f in withUnsafeBytes(of: f.bitPattern.littleEndian) { Array($0) } } }

    func decode(_ bytes: [UInt8], layout: StreamLayout) -> [DecodeEvent] {
        var d = BinaryFrameDecoder(layout: layout)
        var events: [DecodeEvent] = []
        bytes.withUnsafeBytes { d.feed($0) { events.append($0) } }
        d.endOfStream { events.append($0) }
        return events
    }

    @Test func float32FramesResynchroniseAfterGarbage() {
        var layout = StreamLayout()
        layout.encoding = .float32
        let bytes = floats([0.1, 0.2, 1.0]) + [0xFF, 0xFF, 0xFF] + floats([0.3, -0.2, 0.9, 0.5, 0.5, 0.5]) + [0x01]
        let e = decode(bytes, layout: layout)
        let r = e.compactMap { if case .reading(let r) = $0 { r } else { nil } }
        #expect(r.map(\.accel) == [SIMD3(0.1, 0.2, 1.0), SIMD3(0.3, -0.2, 0.9), SIMD3(0.5, 0.5, 0.5)])
        #expect(r.map(\.position) == [0, 15, 27])
        let b = e.compactMap { if case .bad(let p, let why, _) = $0 { (p, why) } else { nil } }
        #expect(b.map(\.0) == [12, 39])
        #expect(b[1].1.contains("end of the stream"))
    }

    @Test func int16BigEndianFramesWithSyncBytes() {
        var layout = StreamLayout()
        layout.encoding = .int16
        layout.bigEndian = true
        layout.sync = [0xAA, 0x55]
        layout.int16Scale = 4.0 / 32768
        // 8192 LSB = 1 g; -4096 = -0.5 g.
        let frame: [UInt8] = [0xAA, 0x55, 0x00, 0x00, 0xF0, 0x00, 0x20, 0x00]
        let e = decode([0x13, 0x37] + frame + frame, layout: layout)
        let r = e.compactMap { if case .reading(let r) = $0 { r } else { nil } }
        #expect(r.count == 2)
        #expect(r[0].accel == SIMD3<Float>(0, -0.5, 1))
        let b = e.compactMap { if case .bad(let p, _, let raw) = $0 { (p, raw) } else { nil } }
        #expect(b.map(\.0) == [0])
        #expect(b.first?.1 == "13 37")
    }
}
