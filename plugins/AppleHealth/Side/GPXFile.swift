import CLibXML2
import Foundation
import HealthPipeCore

/// Apple Health's route files (GPX 1.1, `creator="Apple Health Export"`): `trkpt` with `lat`/`lon`,
/// `ele`, `time` and the extensions `speed`, `course`, `hAcc`, `vAcc`. Read with libxml2's reader
/// from the file's bytes (a route file is a few MB at most); no network, no entities.
enum GPXFile {
    static func points(_ data: Data, file: String) throws -> [WorkoutRoute.Point] {
        var points: [WorkoutRoute.Point] = []
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress, raw.count > 0 else { throw SideFileError(line: 0, reason: "the GPX file is empty") }
            guard let reader = xmlReaderForMemory(base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil,
                                                  Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))
            else { throw SideFileError(line: 0, reason: "libxml2 could not open the GPX file") }
            defer { xmlFreeTextReader(reader) }
            var current: WorkoutRoute.Point? = nil
            var field = ""
            while true {
                let rc = xmlTextReaderRead(reader)
                if rc == 0 { break }
                guard rc == 1 else {
                    throw SideFileError(line: Int64(xmlTextReaderGetParserLineNumber(reader)),
                                        reason: "the GPX file is not well-formed XML (truncated?); its route is not imported")
                }
                let type = xmlTextReaderNodeType(reader)
                let name = xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
                switch type {
                case 1:  // element start
                    if name == "trkpt" {
                        let lat = attribute(reader, "lat").flatMap(Double.init), lon = attribute(reader, "lon").flatMap(Double.init)
                        guard let lat, let lon, (-90...90).contains(lat), (-180...180).contains(lon) else {
                            throw SideFileError(line: Int64(xmlTextReaderGetParserLineNumber(reader)),
                                                reason: "trkpt without a valid lat/lon")
                        }
                        current = WorkoutRoute.Point(time: Int64.min, latitude: lat, longitude: lon)
                    } else {
                        field = name
                    }
                case 3, 4:  // text, CDATA
                    guard current != nil, let v = xmlTextReaderConstValue(reader) else { break }
                    let text = String(cString: v).trimmingCharacters(in: .whitespacesAndNewlines)
                    switch field {
                    case "ele": current!.elevation = Double(text)
                    case "time":
                        var t = text
                        current!.time = t.withUTF8 { b in isoMilliseconds(UnsafeRawBufferPointer(b)) } ?? Int64.min
                    case "speed": current!.speed = Double(text).flatMap { $0 < 0 ? nil : $0 }
                    case "course": current!.course = Double(text).flatMap { $0 < 0 ? nil : $0 }
                    case "hAcc": current!.horizontalAccuracy = Double(text)
                    case "vAcc": current!.verticalAccuracy = Double(text)
                    default: break
                    }
                case 15:  // element end
                    if name == "trkpt", let p = current {
                        guard p.time != Int64.min else {
                            throw SideFileError(line: Int64(xmlTextReaderGetParserLineNumber(reader)), reason: "trkpt without a time")
                        }
                        points.append(p)
                        current = nil
                    }
                    field = ""
                default: break
                }
            }
        }
        return points
    }

    private static func attribute(_ reader: xmlTextReaderPtr, _ name: String) -> String? {
        // xmlTextReaderGetAttribute returns a copy the caller must free through the global xmlFree
        // pointer (not concurrency-safe in Swift); the reader's own attribute walk needs no copy.
        guard xmlTextReaderMoveToAttribute(reader, name) == 1 else { return nil }
        defer { xmlTextReaderMoveToElement(reader) }
        return xmlTextReaderConstValue(reader).map { String(cString: $0) }
    }

    /// `2019-06-11T22:00:42Z` (or with a fraction / numeric offset) → UTC milliseconds.
    static func isoMilliseconds(_ b: UnsafeRawBufferPointer) -> Int64? {
        guard b.count >= 20, let p = try? TimestampPattern("%Y-%m-%dT%H:%M:%S%z"), let t = p.parse(b), let o = t.offset else { return nil }
        var ms: Int64 = 0
        if let dot = b.firstIndex(of: UInt8(ascii: ".")) {
            var scale: Int64 = 100, i = dot + 1
            while i < b.count, (b[i] &- 0x30) <= 9 { ms += Int64(b[i] &- 0x30) * scale; scale /= 10; i += 1 }
        }
        return (t.seconds - Int64(o)) * 1000 + ms
    }
}
