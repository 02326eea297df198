import ArgumentParser
import Charts
import HealthPipeCore

// The options whose value is one of a few words are typed (`ExpressibleByArgument`), so the parser
// checks them, `--help` lists the values and a wrong one is refused naming the option and every
// value, as swift-argument-parser intends. The types are the library's own; these only say how
// they are typed on the command line.

/// `--on-error fail|skip|quarantine`.
extension ErrorPolicy: ExpressibleByArgument {}

/// `--period week|month|year` (the toothbrushing history).
extension HistoryChart.Period: ExpressibleByArgument {}

/// `--filter hypo|hyper|exercise|stress|illness` (the day table).
extension DayTable.Flag: ExpressibleByArgument {}

/// `--unit mmol/L|mg/dL`; the other spellings `GlucoseUnit` reads (`mmol`, `mgdl`, any case) are
/// still accepted, only the two canonical ones are listed.
extension DisplayUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(text: argument) }
}

/// `--basal on|off` (also true/yes, false/no).
enum BasalShown: String, CaseIterable, ExpressibleByArgument {
    case on, off

    init?(argument: String) {
        switch argument.lowercased() {
        case "on", "true", "yes": self = .on
        case "off", "false", "no": self = .off
        default: return nil
        }
    }
}

/// `--model` of the day view: a forecast model, or none.
enum DayForecastChoice: String, CaseIterable, ExpressibleByArgument {
    case ridge, ar2, ridgeTreatments = "ridge-treatments", none
}
