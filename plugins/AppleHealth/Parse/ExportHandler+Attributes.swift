import CLibXML2
import Foundation
import HealthPipeCore

/// The attributes every sample element shares (type, source, unit, value, dates, device) and its
/// MetadataEntry children, read into the current draft.
extension ExportHandler {
    /// Reads the attributes every sample element has: type, sourceName, unit, value, dates, device.
    func beginRecord(_ a: Attributes) {
        draft.reset(line: Int64(currentLine()))
        var unitIndex = -1, valueIndex = -1
        for i in 0..<a.count {
            switch sampleNames.code(a.name(i), at: i) {
            case .type:
                draft.type = types.value(a.value(i), a.length(i)) { HealthType(identifier: $0, filter: options.types) }
            case .sourceName:
                source(a, i)
            case .startDate:
                draft.start = HealthDate.parse(a.value(i), count: a.length(i), memo: &dayMemo)
                if draft.start == nil { draft.badDate = true }
            case .endDate:
                draft.end = HealthDate.parse(a.value(i), count: a.length(i), memo: &dayMemo)
                if draft.end == nil { draft.badDate = true }
            case .unit:
                unitIndex = i
            case .value:
                valueIndex = i
            case .device:
                device(a, i)
            case .other:
                break
            }
        }
        if unitIndex >= 0, let t = draft.type {
            draft.unit = t.units.value(a.value(unitIndex), a.length(unitIndex)) { UnitConversion(appleUnit: $0, metric: t.name) }
        }
        if valueIndex >= 0 {
            if draft.type?.kind != .category { draft.number = a.number(valueIndex) }
            if draft.number == nil { draft.text = texts.value(a.value(valueIndex), a.length(valueIndex)) { $0 } }
        }
    }

    func source(_ a: Attributes, _ i: Int) {
        draft.sourceInfo = sources.value(a.value(i), a.length(i)) { name in
            SourceInfo(symbol: Symbol(name), name: name, included: options.sources.isEmpty || options.sources.contains(name))
        }
    }

    /// The device description repeats per device except for its heap address, so the cache key
    /// starts after the address's `>`.
    func device(_ a: Attributes, _ i: Int) {
        let p = a.value(i), n = a.length(i)
        var k = 0
        if n > 2, p[0] == UInt8(ascii: "<"), let gt = memchr(p, Int32(UInt8(ascii: ">")), n) {
            k = UnsafeRawPointer(gt) - UnsafeRawPointer(p) + 1
        }
        draft.device = devices.value(p + k, n - k) { DeviceInfo(description: $0) }
    }

    /// A MetadataEntry: written into the record's metadata members; the well-known keys also set
    /// fields (read from the value's bytes, no String unless kept).
    func metadataEntry(_ a: Attributes) {
        var keyIndex = -1, valueIndex = -1
        for i in 0..<a.count {
            if named(a.name(i), "key") { keyIndex = i } else if named(a.name(i), "value") { valueIndex = i }
        }
        guard keyIndex >= 0 else { return }
        let key = metadataKeys.value(a.value(keyIndex), a.length(keyIndex)) { MetadataKey($0) }
        // A missing value is written as "" (no bytes of the key's).
        let (p, n) = valueIndex >= 0 ? (a.value(valueIndex), a.length(valueIndex)) : (a.value(keyIndex), 0)
        draft.metadata.append(key: key.encoded, value: p, n)
        switch key.role {
        case .plain: break
        case .timeZone: draft.timeZone = Attributes.text(p, n)
        case .insulinReason: draft.insulinReason = Int(Attributes.text(p, n)) ?? 0
        case .userEntered: draft.userEntered = n == 1 && p[0] == UInt8(ascii: "1")
        case .foodType: if draft.foodType == nil { draft.foodType = Attributes.text(p, n) }
        }
        if let derived = key.derivedKey {
            if let name = key.derivedName(p, n) { draft.metadata.append(key: derived, encodedValue: name) }
            else { draft.metadata.append(key: derived, value: p, n) }
        }
    }
}
