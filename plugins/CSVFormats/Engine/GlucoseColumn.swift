import HealthPipeCore

/// A glucose column of an export whose header names the unit per column (`Sensor Glucose (mmol/L)`,
/// `Historic Glucose mg/dL`): where it is and the unit its values are in.
struct GlucoseColumn {
    var index: Int
    var unit: GlucoseUnit
}
