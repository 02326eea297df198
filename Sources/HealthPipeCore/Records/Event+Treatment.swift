/// A logged treatment (a Nightscout treatment, an exporter's row) split into what it delivered: each
/// part keeps the treatment's time, note, provenance and metadata.
extension Event {
    /// The treatment's insulin as a bolus.
    public func bolus(units: Double) -> Event {
        var e = self
        e.kind = .insulin
        e.subtype = InsulinKinds.bolus
        e.insulin = units
        return e
    }

    /// The treatment's carbohydrates as a meal.
    public func meal(carbs: Double) -> Event {
        var e = self
        e.kind = .meal
        e.subtype = .empty
        e.carbs = carbs
        return e
    }
}
