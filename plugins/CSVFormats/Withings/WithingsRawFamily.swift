import Foundation
import HealthPipeCore

/// The `raw_<device>_<series>.csv` files of Withings' account export all look alike inside
/// (`start,duration,value`); the series is in the file's name only, documented by the README.txt
/// Withings puts in the export (units included). Series not listed are counted as not imported.
enum WithingsRawFamily {
    case heartRate, steps, activeEnergy, sleepState, spo2

    /// The series names, as the end of Withings' file names (and the source's `series` option) write them.
    static let names: [(String, WithingsRawFamily)] = [("hr", .heartRate), ("steps", .steps), ("calories-earned", .activeEnergy),
                                                       ("sleep-state", .sleepState), ("auto_spo2", .spo2)]

    static func named(_ series: String) -> WithingsRawFamily? { names.first { $0.0 == series }?.1 }

    /// The file's name without `.csv` when it is a Withings raw file's (`raw_tracker_hr`); nil for another
    /// name and for a stream (standard input, a pipe: its name is not Withings').
    static func rawName(path: String) -> String? {
        if path == "-" { return nil }
        if let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType,
           type != .typeRegular { return nil }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.lowercased()
        return name.hasPrefix("raw_") ? name : nil
    }

    /// The series a raw file's name ends in (`raw_tracker_hr` → heart rate; raw_hr_hr, raw_bed_hr alike);
    /// nil for a series HealthPipe does not read (distance, elevation, …).
    static func of(rawName name: String) -> WithingsRawFamily? { names.first { name.hasSuffix("_" + $0.0) }?.1 }

    static let heartRateMetric = Symbol("heart_rate"), stepCount = Symbol("step_count"), energyMetric = Symbol("active_energy_burned")
    static let oxygen = Symbol("oxygen_saturation"), perMinute = Symbol("count/min"), count = Symbol("count"), kcal = Symbol("kcal")
    static let sleepStates = [Symbol("sleep_analysis.awake"), Symbol("sleep_analysis.asleep_core"),
                              Symbol("sleep_analysis.asleep_deep"), Symbol("sleep_analysis.asleep_rem")]

    /// The stored metric, unit and value of one array element (nil: a sleep state Withings does not document).
    func record(_ value: Double, seconds: Double) -> (metric: Symbol, unit: Symbol, value: Double)? {
        switch self {
        case .heartRate: return (Self.heartRateMetric, Self.perMinute, value)
        case .steps: return (Self.stepCount, Self.count, value)
        case .activeEnergy: return (Self.energyMetric, Self.kcal, value)
        case .spo2: return (Self.oxygen, PercentMetrics.unit, PercentMetrics.fraction(fromWritten: value))
        case .sleepState:
            guard value == value.rounded(), value >= 0, value < Double(Self.sleepStates.count) else { return nil }
            return (Self.sleepStates[Int(value)], CanonicalUnits.minutes, seconds / 60)
        }
    }
}

/// A cell holding a JSON array of numbers (`[64]`, `[60,60,61]`, `[0.5,1]`), read in place.
enum WithingsValueArray {
    /// Appends the numbers to `out`; false when the cell is not such an array.
    static func read(_ cell: UnsafeRawBufferPointer, into out: inout [Double]) -> Bool {
        guard cell.count >= 2, cell.first == UInt8(ascii: "["), cell.last == UInt8(ascii: "]") else { return false }
        var start = 1
        for i in 1..<cell.count where cell[i] == UInt8(ascii: ",") || i == cell.count - 1 {
            let item = ByteText.trim(UnsafeRawBufferPointer(rebasing: cell[start..<i]))
            start = i + 1
            if item.isEmpty, i == cell.count - 1, out.isEmpty { return true }  // []
            guard let v = ByteText.double(item), v.isFinite else { return false }
            out.append(v)
        }
        return true
    }
}
