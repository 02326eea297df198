import Foundation
import ZIPFoundation

/// Just enough of PNG to judge a screenshot: 8-bit RGB or RGBA, non-interlaced (what chromium
/// writes). IDAT is a zlib stream; its raw deflate body is inflated with ZIPFoundation.
struct PNGImage {
    var width: Int
    var height: Int
    /// RGB triples, row by row.
    var pixels: [UInt8]

    struct Unsupported: Error, CustomStringConvertible { var description: String }

    init(path: String) throws {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard data.count > 8, Array(data[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else { throw Unsupported(description: "\(path): not a PNG") }
        var i = 8, idat: [UInt8] = [], colourType = 0, depth = 0, interlace = 0
        width = 0; height = 0
        func be32(_ at: Int) -> Int { Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) }
        while i + 8 <= data.count {
            let length = be32(i), type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = (i + 8)..<(i + 8 + length)
            switch type {
            case "IHDR":
                width = be32(body.lowerBound); height = be32(body.lowerBound + 4)
                depth = Int(data[body.lowerBound + 8]); colourType = Int(data[body.lowerBound + 9]); interlace = Int(data[body.lowerBound + 12])
            case "IDAT": idat += data[body]
            default: break
            }
            i += 12 + length
        }
        guard depth == 8, colourType == 2 || colourType == 6, interlace == 0, idat.count > 6 else {
            throw Unsupported(description: "\(path): PNG depth \(depth), colour type \(colourType), interlace \(interlace)")
        }
        let deflate = Data(idat[2..<(idat.count - 4)])  // zlib header and Adler-32 off
        var raw = Data()
        _ = try Data.decompress(size: Int64(deflate.count), bufferSize: 64 * 1024, skipCRC32: true, provider: { pos, size in
            deflate.subdata(in: min(Int(pos), deflate.count)..<min(Int(pos) + size, deflate.count))
        }, consumer: { raw.append($0) })
        let bpp = colourType == 6 ? 4 : 3, stride = width * bpp
        let bytes = [UInt8](raw)
        guard bytes.count >= height * (stride + 1) else { throw Unsupported(description: "\(path): short image data") }
        var previous = [UInt8](repeating: 0, count: stride), out: [UInt8] = []
        out.reserveCapacity(width * height * 3)
        for y in 0..<height {
            let filter = bytes[y * (stride + 1)]
            var row = Array(bytes[(y * (stride + 1) + 1)..<((y + 1) * (stride + 1))])
            for x in 0..<stride {
                let a = x >= bpp ? Int(row[x - bpp]) : 0, b = Int(previous[x]), c = x >= bpp ? Int(previous[x - bpp]) : 0
                let predictor: Int
                switch filter {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predictor = 0
                }
                row[x] = UInt8(truncatingIfNeeded: Int(row[x]) + predictor)
            }
            for x in 0..<width { out += row[(x * bpp)..<(x * bpp + 3)] }
            previous = row
        }
        pixels = out
    }

    /// Share of pixels that differ from the most common colour (the background).
    var nonBackgroundShare: Double {
        var counts: [UInt32: Int] = [:]
        for i in stride(from: 0, to: pixels.count, by: 3) { counts[UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2]), default: 0] += 1 }
        let background = counts.values.max() ?? 0
        return 1 - Double(background) / Double(max(width * height, 1))
    }

    /// Pixels within `tolerance` of an RGB colour such as 0x0072B2.
    func count(near rgb: UInt32, tolerance: Int = 24) -> Int {
        let r = Int(rgb >> 16 & 0xFF), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
        var n = 0
        for i in stride(from: 0, to: pixels.count, by: 3)
        where abs(Int(pixels[i]) - r) <= tolerance && abs(Int(pixels[i + 1]) - g) <= tolerance && abs(Int(pixels[i + 2]) - b) <= tolerance { n += 1 }
        return n
    }
}
