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
            switch sampleNames.code(a.name(i)) {
            case .type:
                draft.type = types.value(a.value(i), a.length(i)) { HealthType(identifier: $0, filter: options.types) }
            case .sourceName:
                source(a, i)
            case .startDate:
                draft.start = a.date(i)
                if draft.start == nil { draft.badDate = true }
            case .endDate:
                draft.end = a.date(i)
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
        let info = sources.value(a.value(i), a.length(i)) { name in
            SourceInfo(symbol: Symbol(name), name: name, included: options.sources.isEmpty || options.sources.contains(name))
        }
        draft.source = info.symbol
        draft.sourceName = info.name
        draft.sourceIncluded = info.included
    }

    /// The device description repeats per device except for its heap address, so the cache key
    /// starts after the address's `>`.
    func device(_ a: Attributes, _ i: Int) {
        let p = a.value(i), n = a.length(i)
        var k = 0
        if n > 2, p[0] == UInt8(ascii: "<") {
            while k < n, p[k] != UInt8(ascii: ">") { k += 1 }
            if k < n { k += 1 } else { k = 0 }
        }
        draft.device = devices.value(p + k, n - k) { DeviceInfo(description: $0) }
    }

    /// A MetadataEntry: kept for the JSON; the well-known keys also set fields.
    func metadataEntry(_ a: Attributes) {
        var keyIndex = -1, valueIndex = -1
        for i in 0..<a.count {
            if named(a.name(i), "key") { keyIndex = i } else if named(a.name(i), "value") { valueIndex = i }
        }
        guard keyIndex >= 0 else { return }
        let key = metadataKeys.value(a.value(keyIndex), a.length(keyIndex)) { $0 }
        let value = valueIndex >= 0 ? a.string(valueIndex) : ""
        draft.metadata.append(MetadataPair(key: key, value: value))
        switch key {
        case "HKTimeZone": draft.timeZone = value
        case "HKInsulinDeliveryReason": draft.insulinReason = Int(value) ?? 0
        case "HKWasUserEntered": draft.userEntered = value == "1"
        case "HKBloodGlucoseMealTime":
            draft.metadata.append(MetadataPair(key: "meal_time", value: value == "1" ? "preprandial" : value == "2" ? "postprandial" : value))
        case "HKMetadataKeyHeartRateMotionContext":
            let context = value == "0" ? "unset" : value == "1" ? "sedentary" : value == "2" ? "active" : value
            draft.metadata.append(MetadataPair(key: "motion_context", value: context))
        default: break
        }
    }
}
