import Foundation

/// The wall clock, read in one place (views take "today" from it unless told otherwise).
public enum Clock {
    public static func nowSeconds() -> Int64 { Int64(Date().timeIntervalSince1970) }
}
