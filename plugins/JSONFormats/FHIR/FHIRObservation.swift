import HealthPipeCore

/// One measurement as a FHIR R4 Observation (one NDJSON line).
enum FHIRObservation {
    static func encode(_ m: HealthPipeCore.Measurement, into w: inout JSONWriter) {
        let metric = m.metric.text
        let code = FHIRCodes.byMetric[metric]
        w.beginObject()
        w.key("resourceType"); w.string("Observation")
        w.key("id"); w.string(id(m))
        w.key("status"); w.string("final")
        if let code {
            w.key("category"); w.beginArray(); w.beginObject()
            w.key("coding"); w.beginArray(); w.beginObject()
            w.key("system"); w.string("http://terminology.hl7.org/CodeSystem/observation-category")
            w.key("code"); w.string(code.category)
            w.endObject(); w.endArray()
            w.endObject(); w.endArray()
        }
        w.key("code"); w.beginObject()
        if let code {
            w.key("coding"); w.beginArray()
            for c in code.loinc {
                w.beginObject()
                w.key("system"); w.string("http://loinc.org")
                w.key("code"); w.string(c.code)
                w.key("display"); w.string(c.display)
                w.endObject()
            }
            w.endArray()
        }
        w.key("text"); w.string(metric)
        w.endObject()
        w.key("subject"); w.beginObject()
        w.key("reference"); w.string("Patient/" + FHIRPatient.id(m.subject))
        w.endObject()
        if m.end != m.start {
            w.key("effectivePeriod"); w.beginObject()
            w.key("start"); w.string(dateTime(m.start, m.utcOffset))
            w.key("end"); w.string(dateTime(m.end, m.utcOffset))
            w.endObject()
        } else {
            w.key("effectiveDateTime"); w.string(dateTime(m.start, m.utcOffset))
        }
        quantity(m, metric, &w)
        if m.flags.contains(.belowSensorRange) || m.flags.contains(.aboveSensorRange) {
            // v3 ObservationInterpretation "<" / ">": off scale low / high (a sensor's Low/High).
            let low = m.flags.contains(.belowSensorRange)
            w.key("interpretation"); w.beginArray(); w.beginObject()
            w.key("coding"); w.beginArray(); w.beginObject()
            w.key("system"); w.string("http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation")
            w.key("code"); w.string(low ? "<" : ">")
            w.key("display"); w.string(low ? "Off scale low" : "Off scale high")
            w.endObject(); w.endArray()
            w.endObject(); w.endArray()
        }
        w.key("device"); w.beginObject()
        w.key("display"); w.string(m.source.text)
        w.endObject()
        w.endObject()
        w.newline()
    }

    private static func quantity(_ m: HealthPipeCore.Measurement, _ metric: String, _ w: inout JSONWriter) {
        var value = m.value
        var unit = m.unit.text
        // Stored as a fraction of one (0.97); FHIR's `%` is the percent. A health report's value is the percent already.
        if unit == "%", MetricCatalogue.isFractionPercent(metric), value <= 1 { value *= 100 }
        if unit.isEmpty { unit = "1" }
        w.key("valueQuantity"); w.beginObject()
        w.key("value"); w.double(value)
        w.key("unit"); w.string(unit)
        if let ucum = FHIRCodes.ucum[unit] {
            w.key("system"); w.string("http://unitsofmeasure.org")
            w.key("code"); w.string(ucum)
        }
        w.endObject()
    }

    /// A stable id from the natural key (subject, metric, source, start, end): 64-bit hash in hex.
    static func id(_ m: HealthPipeCore.Measurement) -> String {
        var h = ContentHasher()
        for text in [m.subject.text, m.metric.text, m.source.text] {
            var t = text + "\u{1F}"
            t.withUTF8 { h.update(UnsafeRawBufferPointer($0)) }
        }
        let times = [m.start, m.end]
        times.withUnsafeBytes { h.update($0) }
        return "hp-" + h.finalize()
    }

    /// `2024-05-02T10:15:00+01:00`: the local time with its offset (FHIR dateTime with seconds needs a zone).
    static func dateTime(_ utc: Int64, _ offset: Int32) -> String {
        let local = CivilDate.isoDateTime(seconds: utc + Int64(offset))
        if offset == 0 { return local + "Z" }
        let a = abs(Int(offset)) / 60
        let hh = a / 60, mm = a % 60
        return local + (offset < 0 ? "-" : "+") + (hh < 10 ? "0" : "") + String(hh) + ":" + (mm < 10 ? "0" : "") + String(mm)
    }
}

/// A subject as a FHIR R4 Patient.
enum FHIRPatient {
    static func encode(subject: Symbol, profile: SubjectProfile?, into w: inout JSONWriter) {
        w.beginObject()
        w.key("resourceType"); w.string("Patient")
        w.key("id"); w.string(id(subject))
        w.key("identifier"); w.beginArray(); w.beginObject()
        w.key("system"); w.string("urn:healthpipe:subject")
        w.key("value"); w.string(subject.text)
        w.endObject(); w.endArray()
        if let sex = profile?.biologicalSex {
            w.key("gender"); w.string(sex == "male" || sex == "female" || sex == "other" ? sex : "unknown")
        }
        if let dob = profile?.dateOfBirth, dob.count == 10 { w.key("birthDate"); w.string(dob) }
        w.endObject()
        w.newline()
    }

    /// FHIR ids are `[A-Za-z0-9-.]{1,64}`: the subject name when it fits, else a cleaned name and a hash.
    static func id(_ subject: Symbol) -> String {
        let text = subject.text
        let allowed = text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".") }
        if allowed, !text.isEmpty, text.count <= 64 { return text }
        var h = ContentHasher()
        var t = text
        t.withUTF8 { h.update(UnsafeRawBufferPointer($0)) }
        let cleaned = String(text.unicodeScalars.map { s -> Character in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s)) ? Character(s) : "-"
        }.prefix(40))
        return (cleaned.isEmpty ? "subject" : cleaned) + "-" + h.finalize()
    }
}
