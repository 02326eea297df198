import Foundation
import HealthPipeAnalytics
import HealthPipeCore

/// Formats evaluation scores as a text table or JSON (percentages 0–100, mg/dL errors).
enum EvaluationReport {
    static func table(_ r: ForecastEvaluation.Result, models: [ForecastModelKind], subjects: [String], horizon: Int) -> String {
        func f(_ v: Double, _ d: Int = 2) -> String { v.isNaN ? "-" : String(format: "%.\(d)f", v) }
        func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s : String(repeating: " ", count: w - s.count) + s }
        var out = "\(horizon)-minute forecasts, \(subjects.count) subjects (train days 1–7, score from day 8 + 60 min)\n\n"
        out += "model              " + ["n", "RMSE", "RMSE subj", "MAE", "MARD %", "Clarke A %", "A+B %"].map { pad($0, 11) }.joined() + "\n"
        for m in models {
            let s = r.overall[m] ?? ErrorScores()
            out += m.rawValue.padding(toLength: 19, withPad: " ", startingAt: 0)
            out += [String(s.n), f(s.rmse), f(r.rmseMeanOfSubjects(m)), f(s.mae), f(s.mard), f(s.clarkeA, 1), f(s.clarkeAB, 1)]
                .map { pad($0, 11) }.joined() + "\n"
        }
        out += "\nRMSE per subject (n)\n"
        out += "subject            " + models.map { pad($0.rawValue, 24) }.joined() + "\n"
        for subject in subjects {
            out += subject.padding(toLength: 19, withPad: " ", startingAt: 0)
            for m in models {
                let s = r.perSubject[m]?[subject] ?? ErrorScores()
                out += pad("\(f(s.rmse)) (\(s.n))", 24)
            }
            out += "\n"
        }
        return out
    }

    static func json(_ r: ForecastEvaluation.Result, models: [ForecastModelKind], subjects: [String], horizon: Int) -> String {
        var w = JSONWriter()
        func number(_ v: Double) { if v.isNaN { w.null() } else { w.double(v) } }
        func scores(_ s: ErrorScores, meanOfSubjects: Double?) {
            w.beginObject()
            w.key("rmse"); number(s.rmse)
            if let meanOfSubjects { w.key("rmse_mean_subjects"); number(meanOfSubjects) }
            w.key("mae"); number(s.mae)
            w.key("mard"); number(s.mard)
            w.key("clarke_a"); number(s.clarkeA)
            w.key("clarke_ab"); number(s.clarkeAB)
            w.key("n"); w.int(s.n)
            w.endObject()
        }
        w.beginObject()
        w.key("horizon_minutes"); w.int(horizon)
        w.key("models")
        w.beginObject()
        for m in models {
            w.key(m.rawValue)
            scores(r.overall[m] ?? ErrorScores(), meanOfSubjects: r.rmseMeanOfSubjects(m))
        }
        w.endObject()
        w.key("subjects")
        w.beginObject()
        for subject in subjects {
            w.key(subject)
            w.beginObject()
            for m in models {
                w.key(m.rawValue)
                scores(r.perSubject[m]?[subject] ?? ErrorScores(), meanOfSubjects: nil)
            }
            w.endObject()
        }
        w.endObject()
        w.endObject()
        w.newline()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
