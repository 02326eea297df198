import ArgumentParser
import Charts
import HealthPipeAnalytics
import HealthPipeCore
import SerialIMU

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

/// `--model` of the day view: a forecast model, or `none`.
struct DayForecastModel: ExpressibleByArgument {
    let model: ForecastModelKind?

    init(_ model: ForecastModelKind?) { self.model = model }

    init?(argument: String) {
        if argument == "none" { model = nil } else if let m = ForecastModelKind(rawValue: argument) { model = m } else { return nil }
    }

    static var allValueStrings: [String] { ForecastModelKind.allCases.map(\.rawValue) + ["none"] }
    var defaultValueDescription: String { model?.rawValue ?? "none" }
}

/// `--preset` of the bands: a named `BandScheme` preset.
struct BandPresetName: ExpressibleByArgument {
    let name: String
    let scheme: BandScheme

    init?(argument: String) {
        guard let scheme = BandScheme.presets[argument] else { return nil }
        name = argument
        self.scheme = scheme
    }

    static var allValueStrings: [String] { BandScheme.presets.keys.sorted() }
}

/// `--per day|period` of `metrics`.
enum MetricsPer: String, CaseIterable, ExpressibleByArgument {
    case day, period
}

/// `--model` of `evaluate` (repeatable).
extension ForecastModelKind: ExpressibleByArgument {}

/// `--intensity` of exercise, in any case (the health log stores it lower-case).
struct ExerciseIntensity: ExpressibleByArgument {
    let text: String

    init?(argument: String) {
        guard EntryDraft.intensities.contains(argument.lowercased()) else { return nil }
        text = argument
    }

    static var allValueStrings: [String] { EntryDraft.intensities }
}

/// A kind of manual entry typed on the command line (any case): every kind but a report
/// (`entries list --kind`), or an episode's (`add episode`).
struct EntryKindArgument: ExpressibleByArgument {
    let kind: EntryKind

    init?(argument: String) {
        guard let k = EntryKind(rawValue: argument.lowercased()), k != .report else { return nil }
        kind = k
    }

    static var allValueStrings: [String] { EntryKind.allCases.filter { $0 != .report }.map(\.rawValue) }
}

struct EpisodeKindArgument: ExpressibleByArgument {
    let kind: EntryKind

    init?(argument: String) {
        guard let k = EntryKind(rawValue: argument.lowercased()), k.isEpisode else { return nil }
        kind = k
    }

    static var allValueStrings: [String] { EntryKind.allCases.filter(\.isEpisode).map(\.rawValue) }
}

/// The stream's encoding, acceleration unit, frame checksum and session start (`stream`); the
/// serial-imu source and the motion-session transform read the same words.
extension StreamLayout.AccelerationUnit: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "m/s²", "m/s^2": self = .metersPerSecondSquared
        default: self.init(rawValue: argument)
        }
    }
}

/// `--format` of `stream`: text lines (comma- or tab-separated) or binary frames.
enum StreamFormat: String, CaseIterable, ExpressibleByArgument {
    case csv, tsv, float32, int16
}

extension StreamLayout.Checksum: ExpressibleByArgument {}
extension SessionRules.StartRule: ExpressibleByArgument {}
