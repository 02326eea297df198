import Foundation
import HealthPipeCore

/// Apple Watch ECG exports (`electrocardiograms/ecg_YYYY-MM-DD.csv`): `Key,Value` header lines
/// (Name, Date of Birth, Recorded Date, Classification, Symptoms, Software Version, Device, Sample
/// Rate, Lead, Unit), a blank line, then one voltage per line in µV (decimal point, or a decimal
/// comma in some locales: `-265,868`). Name and date of birth are not kept.
enum ECGFile {
    static let private_: Set<String> = ["name", "date of birth"]

    static func read(_ data: Data, file: SideFiles.File, options: AppleHealthOptions) throws -> Electrocardiogram {
        let text = String(decoding: data, as: UTF8.self)
        var header: [(key: String, value: String)] = []
        var samples: [Float] = []
        samples.reserveCapacity(16_000)
        var lineNo: Int64 = 0, firstSampleLine: Int64 = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNo += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line == "," { continue }
            if let v = voltage(line) {
                if firstSampleLine == 0 { firstSampleLine = lineNo }
                samples.append(v)
                continue
            }
            guard samples.isEmpty else {
                throw SideFileError(line: lineNo, reason: "'\(line.prefix(40))' among the voltages is not a number")
            }
            guard let comma = line.firstIndex(of: ",") else { continue }
            var value = String(line[line.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            header.append((String(line[..<comma]).trimmingCharacters(in: .whitespaces), value))
        }
        func value(_ key: String) -> String? { header.first { $0.key.lowercased() == key }?.value }
        guard let recorded = value("recorded date").flatMap(HealthDate.parse)
                ?? header.lazy.compactMap({ HealthDate.parse($0.value) }).first else {
            throw SideFileError(line: 0, reason: "no Recorded Date (yyyy-MM-dd HH:mm:ss ±HHMM) in the ECG header")
        }
        guard !samples.isEmpty else { throw SideFileError(line: lineNo, reason: "the ECG file has no voltages") }
        let rate = value("sample rate").flatMap(leadingNumber) ?? 512
        let offset = options.zone.map { Int32($0.secondsFromGMT(for: Date(timeIntervalSince1970: Double(recorded.utc)))) }
            ?? recorded.offset
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        let mapped: Set<String> = ["recorded date", "classification", "symptoms", "sample rate", "lead", "average heart rate"]
        for (k, v) in header where !mapped.contains(k.lowercased()) && !private_.contains(k.lowercased()) {
            w.key(k); w.string(v)
        }
        w.endObject()
        let metadata = String(decoding: w.bytes, as: UTF8.self)
        var device: [(key: String, value: String)] = [("name", "Apple Watch"), ("manufacturer", "Apple Inc.")]
        if let hw = value("device") { device.append(("hardware", hw)) }
        if let sw = value("software version") { device.append(("software", sw)) }
        return Electrocardiogram(subject: options.subject, source: Symbol("ECG"), start: recorded.utc, utcOffset: offset,
                                 classification: value("classification").flatMap { $0.isEmpty ? nil : $0 },
                                 symptoms: value("symptoms").flatMap { $0.isEmpty ? nil : $0 },
                                 averageHeartRate: value("average heart rate").flatMap(leadingNumber),
                                 samplingHz: rate, lead: value("lead"), microvolts: samples,
                                 metadata: metadata == "{}" ? nil : metadata, device: DeviceText.symbol(device),
                                 provenance: Provenance(file: Symbol(file.provenance), line: firstSampleLine))
    }

    /// A voltage line: `-48.673`, `12`, or with a decimal comma `-265,868`.
    static func voltage(_ line: String) -> Float? {
        if let v = Float(line), v.isFinite { return v }
        let parts = line.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber),
              let v = Float(parts[0] + "." + parts[1]), v.isFinite else { return nil }
        return v
    }

    /// `512.844 hertz` → 512.844, `64 bpm` → 64.
    static func leadingNumber(_ s: String) -> Double? {
        let digits = s.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber || $0 == "." || $0 == "," }
        return Double(digits.replacingOccurrences(of: ",", with: "."))
    }
}
