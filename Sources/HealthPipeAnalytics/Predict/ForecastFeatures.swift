import HealthPipeCore

/// The ridge models' inputs at a forecast origin t (docs/prediction.md):
/// - y(t), y(t−5) … y(t−25): the last six readings on the 5-minute grid (±2.5 min), newest first;
/// - sin/cos of the local time of day and of twice it (meals recur at similar hours);
/// - with treatments: insulin on board, insulin still to act in (t, t+30], insulin activity (oref0
///   exponential curve, peak 75 min, 5 h), carbs on board and carbs to absorb in (t, t+30] (linear
///   over 3 h), and carbs and insulin summed over ages 0–15, 15–30, 30–60, 60–90, 90–120, 120–180 min.
public enum ForecastFeatures {
    public static let lags = 6
    public static let cgmWidth = lags + 4
    public static let treatmentWidth = cgmWidth + 5 + 12
    static let windows: [(Double, Double)] = [(0, 15), (15, 30), (30, 60), (60, 90), (90, 120), (120, 180)]

    /// Writes the CGM features into `out[0..<cgmWidth]`; false when a lag is missing.
    static func fillCGM(_ out: inout [Double], history: ReadingHistory, time: Int64, utcOffset: Int32) -> Bool {
        for k in 0..<lags {
            guard let v = k == 0 ? history.values.last : history.value(near: time - Int64(300 * k)) else { return false }
            out[k] = v
        }
        let local = Double(((time + Int64(utcOffset)) % 86_400 + 86_400) % 86_400)
        let angle = local / 86_400 * 2 * Double.pi
        let s = sin(angle), c = cos(angle)
        out[lags] = s
        out[lags + 1] = c
        out[lags + 2] = 2 * s * c
        out[lags + 3] = c * c - s * s
        return true
    }

    static func fillTreatments(_ out: inout [Double], treatments: TreatmentHistory, time: Int64) {
        var iob = 0.0, iobDelta = 0.0, activity = 0.0, cob = 0.0, cobDelta = 0.0
        var carbWindows = [Double](repeating: 0, count: 6), insulinWindows = [Double](repeating: 0, count: 6)
        for d in treatments.doses {
            let age = Double(time - d.time) / 60
            if age < 0 || age >= 300 { continue }
            if d.insulin != 0 {
                let now = InsulinCurve.standard.iob(age)
                iob += d.insulin * now
                iobDelta += d.insulin * (now - InsulinCurve.standard.iob(age + 30))
                activity += d.insulin * InsulinCurve.standard.activity(age)
            }
            if d.carbs != 0 {
                let left = max(0, 1 - age / 180)
                cob += d.carbs * left
                cobDelta += d.carbs * (left - max(0, 1 - (age + 30) / 180))
            }
            for (w, bounds) in windows.enumerated() where age >= bounds.0 && age < bounds.1 {
                carbWindows[w] += d.carbs
                insulinWindows[w] += d.insulin
            }
        }
        var j = cgmWidth
        for v in [iob, iobDelta, activity, cob, cobDelta] { out[j] = v; j += 1 }
        for v in carbWindows { out[j] = v; j += 1 }
        for v in insulinWindows { out[j] = v; j += 1 }
    }
}

/// oref0's exponential insulin curve (reference/analytics.md §6.2) per unit dose, age in minutes.
struct InsulinCurve: Sendable {
    let end: Double, tau: Double, a: Double, s: Double
    static let standard = InsulinCurve(peak: 75, durationHours: 5)

    init(peak: Double, durationHours: Double) {
        end = durationHours * 60
        tau = peak * (1 - peak / end) / (1 - 2 * peak / end)
        a = 2 * tau / end
        s = 1 / (1 - a + (1 + a) * exp(-end / tau))
    }

    func iob(_ t: Double) -> Double {
        if t < 0 { return 1 }
        if t >= end { return 0 }
        return 1 - s * (1 - a) * ((t * t / (tau * end * (1 - a)) - t / tau - 1) * exp(-t / tau) + 1)
    }

    func activity(_ t: Double) -> Double {
        if t < 0 || t >= end { return 0 }
        return s / (tau * tau) * t * (1 - t / end) * exp(-t / tau)
    }
}

#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#elseif canImport(Darwin)
import Darwin
#endif
