/// LOINC codes and UCUM units for HealthPipe's metrics. Sources (looked up, not guessed):
/// - CGM reading: HL7 FHIR CGM IG 1.0.0 (STU 1), "CGM Sensor Reading (Mass)" = LOINC 99504-3.
/// - Vital signs: FHIR R4 value set observation-vitalsignresult (8867-4, 8480-6, 8462-4, 8310-5,
///   9279-1, 29463-7, 8302-2, 39156-5, 2708-6/59408-5).
/// - Meter glucose 41653-7, steps 55423-8, resting heart rate 40443-4, HRV SDNN 80404-7, active energy
///   41981-2, body fat 41982-0, dietary energy 9052-2, waist 8280-0, flights 100304-5, lean mass 91557-9:
///   Stanford HealthKitOnFHIR mapping table (HealthKit → LOINC), checked against the codes' LOINC names.
enum FHIRCodes {
    struct Code {
        var loinc: [(code: String, display: String)]
        var category: String
    }

    static let vitalSigns = "vital-signs", laboratory = "laboratory", activity = "activity"

    static let byMetric: [String: Code] = [
        "glucose": Code(loinc: [("99504-3", "Glucose [Mass/volume] in Interstitial fluid")], category: laboratory),
        "blood_glucose": Code(loinc: [("41653-7", "Glucose [Mass/volume] in Capillary blood by Glucometer")], category: laboratory),
        "heart_rate": Code(loinc: [("8867-4", "Heart rate")], category: vitalSigns),
        "resting_heart_rate": Code(loinc: [("40443-4", "Heart rate --resting")], category: vitalSigns),
        "heart_rate_variability_sdnn": Code(loinc: [("80404-7", "R-R interval.standard deviation (Heart rate variability)")],
                                            category: vitalSigns),
        "blood_pressure_systolic": Code(loinc: [("8480-6", "Systolic blood pressure")], category: vitalSigns),
        "blood_pressure_diastolic": Code(loinc: [("8462-4", "Diastolic blood pressure")], category: vitalSigns),
        "body_temperature": Code(loinc: [("8310-5", "Body temperature")], category: vitalSigns),
        "respiratory_rate": Code(loinc: [("9279-1", "Respiratory rate")], category: vitalSigns),
        "body_mass": Code(loinc: [("29463-7", "Body weight")], category: vitalSigns),
        "height": Code(loinc: [("8302-2", "Body height")], category: vitalSigns),
        "body_mass_index": Code(loinc: [("39156-5", "Body mass index (BMI) [Ratio]")], category: vitalSigns),
        "oxygen_saturation": Code(loinc: [("2708-6", "Oxygen saturation in Arterial blood"),
                                          ("59408-5", "Oxygen saturation in Arterial blood by Pulse oximetry")], category: vitalSigns),
        "step_count": Code(loinc: [("55423-8", "Number of steps in unspecified time Pedometer")], category: activity),
        "active_energy_burned": Code(loinc: [("41981-2", "Calories burned")], category: activity),
        "flights_climbed": Code(loinc: [("100304-5", "Flights climbed [#] Reporting Period")], category: activity),
        "body_fat_percentage": Code(loinc: [("41982-0", "Percentage of body fat Measured")], category: vitalSigns),
        "lean_body_mass": Code(loinc: [("91557-9", "Lean body weight")], category: vitalSigns),
        "waist_circumference": Code(loinc: [("8280-0", "Waist Circumference at umbilicus by Tape measure")], category: vitalSigns),
        "dietary_energy_consumed": Code(loinc: [("9052-2", "Calorie intake total")], category: activity),
    ]

    /// HealthPipe unit → UCUM code (nil: the unit is written as text only).
    static let ucum: [String: String] = [
        "mg/dL": "mg/dL", "mmol/L": "mmol/L", "count/min": "/min", "degC": "Cel", "mmHg": "mm[Hg]", "kg": "kg",
        "%": "%", "ms": "ms", "km": "km", "m": "m", "cm": "cm", "kcal": "kcal", "min": "min", "h": "h", "g": "g",
        "U": "[iU]", "U/h": "[iU]/h", "count": "1", "s": "s",
    ]
}
