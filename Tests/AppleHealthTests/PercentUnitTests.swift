@testable import AppleHealth
import Foundation
import HealthPipeCore
import Testing

/// Apple writes percentages as fractions ("%", 0.98); other writers put the percent itself ("%", 98).
/// Both are one reading, stored as the fraction, for every percentage metric (`PercentMetrics`).
@Suite struct PercentUnitTests {
    @Test(arguments: ["OxygenSaturation", "BodyFatPercentage", "WalkingAsymmetryPercentage",
                      "WalkingDoubleSupportPercentage", "AppleWalkingSteadiness"])
    func aWholePercentAndAFractionAreOneReading(type: String) throws {
        let id = "HKQuantityTypeIdentifier" + type
        let body = record(id, value: "98", unit: "%") + record(id, value: "0.98", unit: "%", start: "2024-01-02 10:05:00 +0100")
            + record(id, value: "24.3", unit: "%", start: "2024-01-02 10:10:00 +0100")
        let run = try read(try write(healthXML(body)))
        #expect(run.rejects.isEmpty)
        let values = run.measurements.map(\.value)
        #expect(values.count == 3 && abs(values[0] - 0.98) < 1e-12 && values[1] == 0.98 && abs(values[2] - 0.243) < 1e-12)
        #expect(run.measurements.allSatisfy { $0.unit.text == "%" })
    }

    @Test func aPercentAboveAHundredOrNegativeIsStillRefused() throws {
        let id = "HKQuantityTypeIdentifierOxygenSaturation"
        let body = record(id, value: "130", unit: "%") + record(id, value: "-5", unit: "%", start: "2024-01-02 10:05:00 +0100")
            + record(id, value: "0", unit: "%", start: "2024-01-02 10:10:00 +0100")
        let run = try read(try write(healthXML(body)))
        #expect(run.measurements.isEmpty && run.rejects.count == 3)
    }
}
