import SerialIMU

/// The serial stream decoders, fed in uneven chunks as bytes arrive from a device. The first bytes
/// choose the layout (columns, header rule, encoding, sync bytes), so every branch is reachable.
enum SerialTargets {
    static func text(_ data: UnsafeRawBufferPointer) -> Int {
        guard data.count >= 2 else { return 0 }
        var layout = StreamLayout()
        let pick = data[0]
        let columnSets: [[StreamLayout.Column]] = [[.ax, .ay, .az], [.ax, .ay, .az, .gx, .gy, .gz], [.tMs, .ax, .ay, .az],
                                                   [.tS, .ax, .ay, .az, .skip], [.skip, .ax, .ay, .az, .gx, .gy, .gz, .tMs]]
        layout.columns = columnSets[Int(pick) % columnSets.count]
        layout.header = [nil, true, false][Int(pick >> 4) % 3]
        layout.units = pick & 0x80 != 0 ? .metersPerSecondSquared : .g
        layout.maxLineBytes = 64 + Int(data[1])
        var decoder = TextLineDecoder(layout: layout)
        return feed(&decoder, UnsafeRawBufferPointer(rebasing: data[2...]), chunk: Int(data[1] % 17) + 1)
    }

    static func binary(_ data: UnsafeRawBufferPointer) -> Int {
        guard data.count >= 3 else { return 0 }
        var layout = StreamLayout()
        let pick = data[0]
        layout.encoding = pick & 1 == 0 ? .float32 : .int16
        layout.bigEndian = pick & 2 != 0
        layout.units = pick & 4 != 0 ? .metersPerSecondSquared : .g
        let syncLength = Int(pick >> 3) % 3
        layout.sync = Array(data[1..<min(data.count, 1 + syncLength)])
        let body = UnsafeRawBufferPointer(rebasing: data[min(data.count, 1 + syncLength)...])
        var decoder = BinaryFrameDecoder(layout: layout)
        return feed(&decoder, body, chunk: Int(data[data.count - 1] % 13) + 1)
    }

    /// Feeds `bytes` in pieces of `chunk` bytes; returns the readings decoded.
    private static func feed<D: StreamDecoder>(_ decoder: inout D, _ bytes: UnsafeRawBufferPointer, chunk: Int) -> Int {
        var readings = 0
        var i = 0
        while i < bytes.count {
            let n = min(chunk, bytes.count - i)
            decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[i..<i + n])) { if case .reading = $0 { readings += 1 } }
            i += n
        }
        decoder.endOfStream { if case .reading = $0 { readings += 1 } }
        return readings
    }
}
