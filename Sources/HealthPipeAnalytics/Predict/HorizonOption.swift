import HealthPipeCore

/// A duration option written `30m`, `1h`, `90min` or a plain number of minutes.
public enum DurationText {
    /// Minutes, or nil when the text is not a duration.
    public static func minutes(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (suffix, factor) in [("min", 1), ("m", 1), ("h", 60)] where t.hasSuffix(suffix) {
            return Int(t.dropLast(suffix.count)).map { $0 * factor }
        }
        return Int(t)
    }
}

import Foundation
