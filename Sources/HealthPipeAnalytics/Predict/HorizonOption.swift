import HealthPipeCore

/// A duration option written `30m`, `1h`, `90min` or a plain number of minutes.
public enum DurationText {
    /// Minutes, or nil when the text is not a duration.
    public static func minutes(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (suffix, factor) in [("min", 1), ("m", 1), ("h", 60)] where t.hasSuffix(suffix) {
            // 9223372036854775807h is no duration (it trapped multiplying).
            return Int(t.dropLast(suffix.count)).flatMap { n in
                let (minutes, overflow) = n.multipliedReportingOverflow(by: factor)
                return overflow ? nil : minutes
            }
        }
        return Int(t)
    }
}

import Foundation
