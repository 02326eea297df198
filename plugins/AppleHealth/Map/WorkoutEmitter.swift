import HealthPipeCore

/// Workout elements → exercise events named after the activity, with an intensity from the energy
/// burned per minute and the totals, statistics, events and route files in the metadata JSON.
extension ExportHandler {
    func beginWorkout(_ a: Attributes) {
        beginRecord(a)
        workout.reset()
        for i in 0..<a.count {
            let n = a.name(i)
            if named(n, "workoutActivityType") { workout.activity = a.string(i) }
            else if named(n, "duration") { workout.durationMinutes = a.number(i) }
            else if named(n, "durationUnit") { workout.durationUnit = a.string(i) }
            else if named(n, "totalDistance") { workout.distance = a.number(i) }
            else if named(n, "totalDistanceUnit") { workout.distanceUnit = a.string(i) }
            else if named(n, "totalEnergyBurned") { workout.energy = a.number(i) }
            else if named(n, "totalEnergyBurnedUnit") { workout.energyUnit = a.string(i) }
        }
    }

    func workoutChild(_ name: UnsafePointer<UInt8>, _ a: Attributes) {
        if named(name, "WorkoutStatistics") {
            var s = WorkoutDraft.Statistic(type: "", unit: "")
            for i in 0..<a.count {
                let n = a.name(i)
                if named(n, "type") { s.type = a.string(i) }
                else if named(n, "sum") { s.sum = a.number(i) }
                else if named(n, "average") { s.average = a.number(i) }
                else if named(n, "minimum") { s.minimum = a.number(i) }
                else if named(n, "maximum") { s.maximum = a.number(i) }
                else if named(n, "unit") { s.unit = a.string(i) }
            }
            workout.statistics.append(s)
        } else if named(name, "WorkoutEvent") {
            var type = "", date = ""
            for i in 0..<a.count {
                if named(a.name(i), "type") { type = a.string(i) } else if named(a.name(i), "date") { date = a.string(i) }
            }
            workout.events.append((type, date))
        }
    }

    /// Stored, or skipped when the options leave it out; nil when quarantined (counted there).
    func finishWorkout() -> RowTally.Outcome? {
        guard workoutsIncluded, draft.sourceIncluded else { filtered += 1; return .skipped }
        guard let start = draft.start, !draft.badDate else {
            reject("Workout with a missing or unreadable startDate/endDate")
            return nil
        }
        let end = draft.end ?? start
        let offset = offset(at: start)
        guard dayIncluded(start.utc + Int64(offset)) else { filtered += 1; return .skipped }

        let w = workout
        let minutes = w.durationMinutes.map { d in
            switch w.durationUnit { case "s": d / 60; case "hr", "h": d * 60; default: d }
        } ?? Double(end.utc - start.utc) / 60
        var distance = w.distance.map { UnitConversion(appleUnit: w.distanceUnit, metric: "distance").convert($0).value }
        var energy = w.energy.map { UnitConversion(appleUnit: w.energyUnit, metric: "energy").convert($0).value }
        // iOS 15+ may leave the totals to WorkoutStatistics.
        for s in w.statistics {
            guard let sum = s.sum else { continue }
            if energy == nil, s.type.hasSuffix("ActiveEnergyBurned") {
                energy = UnitConversion(appleUnit: s.unit, metric: "energy").convert(sum).value
            } else if distance == nil, s.type.contains("Distance") {
                distance = UnitConversion(appleUnit: s.unit, metric: "distance").convert(sum).value
            }
        }
        let activity = HealthTypes.snakeCase(HealthTypes.shortName(w.activity))
        let metadata = metadataJSON { j in
            j.field("activity", w.activity)
            j.field("duration_min", minutes)
            j.field("distance_km", ifPresent: distance)
            j.field("energy_kcal", ifPresent: energy)
            if !w.statistics.isEmpty {
                j.objects("statistics", w.statistics) { j, s in
                    j.field("type", s.type)
                    j.field("sum", ifPresent: s.sum); j.field("average", ifPresent: s.average)
                    j.field("minimum", ifPresent: s.minimum); j.field("maximum", ifPresent: s.maximum)
                    j.field("unit", s.unit)
                }
            }
            if !w.events.isEmpty {
                j.objects("events", w.events) { j, e in j.field("type", e.type); j.field("date", e.date) }
            }
            if !w.routes.isEmpty {
                j.array("routes", w.routes) { j, r in j.string(r) }
            }
        }
        add(Event(subject: options.subject, kind: .exercise, subtype: Symbol(activity.isEmpty ? "workout" : activity),
                  source: draft.source, start: start.utc, end: end.utc, utcOffset: offset,
                  intensity: Self.intensity(energyKcal: energy, minutes: minutes),
                  flags: draft.userEntered ? .userEntered : [], provenance: Provenance(file: file, line: draft.line),
                  device: deviceSymbol, metadata: metadata))
        finishRoutes(workoutStart: start.utc, offset: offset)
        return .stored
    }

    /// Energy per minute (kcal/min, roughly METs × body mass): < 5 light, < 10 medium, else heavy.
    static func intensity(energyKcal: Double?, minutes: Double) -> Symbol {
        guard let energyKcal, minutes > 0 else { return .empty }
        let perMinute = energyKcal / minutes
        return perMinute < 5 ? Intensity.light : perMinute < 10 ? Intensity.medium : Intensity.heavy
    }
}

enum Intensity {
    static let light = Symbol("light")
    static let medium = Symbol("medium")
    static let heavy = Symbol("heavy")
}
