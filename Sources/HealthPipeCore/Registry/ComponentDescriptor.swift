import Foundation
import Yams

/// A stage whose output is derived data kept in a database (classify, daily, resample, predict,
/// alerts): its effective settings as one canonical text, every default filled in, so that two
/// ways of writing the same settings compare equal.
public protocol DerivationStep: Stage {
    var fingerprint: String { get }
}

/// One documented option of a component, listed by `healthpipe plugins`.
public struct OptionDoc: Sendable, Hashable {
    public var name: String
    public var type: String
    public var defaultValue: String?
    public var doc: String
    /// The stage cannot be built without it (`healthpipe plugins` says "(required)").
    public var required: Bool
    /// A valid YAML value, for the registry's compliance test when `type` alone does not give one.
    public var example: String?
    public init(_ name: String, _ type: String, default defaultValue: String? = nil, required: Bool = false,
                example: String? = nil, _ doc: String) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.doc = doc
        self.required = required
        self.example = example
    }
}

public enum StageRole: String, Sendable, CaseIterable {
    case source, transform, sink
    /// The YAML section that holds stages of this role.
    public var section: String { rawValue + "s" }
}

/// Everything the engine knows about a registered component: what it is, how to document it,
/// which records it takes and emits, how to recognise its files, and how to build it.
public struct ComponentDescriptor: Sendable {
    public var name: String
    public var role: StageRole
    /// The plugin family (SwiftPM target or YAML adapter file) that provides it.
    public var family: String
    public var summary: String
    public var options: [OptionDoc]
    public var accepts: RecordKinds
    public var produces: RecordKinds
    /// Transforms that forward what they receive (annotated) as well as their own output.
    public var passesThrough: Bool
    /// Sources that emit each (subject, metric)'s readings in time order, with nothing out of order
    /// and each natural key once (the sqlite-source): transforms fed by them alone can stream.
    public var emitsTimeOrdered: Bool = false
    /// For file sources: a 0–100 score that a file is in this format, from its first bytes.
    public var detect: (@Sendable (FileSniff) -> Int)?
    /// For file sources: why a file that looks like this family's container cannot be read (a zip
    /// that is truncated or corrupt), so "unknown format" is never said of a broken file of a known kind.
    public var diagnose: (@Sendable (FileSniff) -> String?)?
    /// For file sources: words a file of this format shows near its start (lower-case header
    /// words, JSON keys), so that "unknown format" can name the nearest format and what it lacks.
    public var signature: [String]
    /// Sources that hand their stage's options to the format they pick (`stdin`/`auto` with
    /// `format:`): keys beyond `options` are that format's, checked when it is built.
    public var delegatesOptions: Bool
    /// Sources that find the format of what they read at run time, with the pipeline's registry (a zip
    /// of exports, `auto`, `stdin`): choosing such a source is not the end of what formats it needs.
    public var findsFormatsAtRun: Bool
    public var build: @Sendable (ComponentBuilder) throws -> any Stage

    public init(name: String, role: StageRole, family: String, summary: String, options: [OptionDoc],
                accepts: RecordKinds = [], produces: RecordKinds = [], passesThrough: Bool = false,
                emitsTimeOrdered: Bool = false, detect: (@Sendable (FileSniff) -> Int)? = nil,
                diagnose: (@Sendable (FileSniff) -> String?)? = nil, signature: [String] = [], delegatesOptions: Bool = false,
                findsFormatsAtRun: Bool = false, build: @escaping @Sendable (ComponentBuilder) throws -> any Stage) {
        self.name = name
        self.role = role
        self.family = family
        self.summary = summary
        self.options = options
        self.accepts = accepts
        self.produces = produces
        self.passesThrough = passesThrough
        self.emitsTimeOrdered = emitsTimeOrdered
        self.detect = detect
        self.diagnose = diagnose
        self.signature = signature
        self.delegatesOptions = delegatesOptions
        self.findsFormatsAtRun = findsFormatsAtRun
        let declared = Set(options.map(\.name))
        self.build = { b in
            var b = b
            b.declaredOptions = declared
            if !delegatesOptions { try b.refuseUndeclaredOptions() }
            return try build(b)
        }
    }
}

/// Settings shared by every component of a run (from flags or the config's top level).
public struct RunSettings: Sendable {
    /// Default IANA zone for naive local timestamps; nil means sources must be told or fail.
    public var timezone: String?
    public var subject: String
    /// Relative paths in a config resolve against this folder.
    public var baseDirectory: String
    public var pluginPaths: [String]
    /// Each person's zone history, as the store the run writes to holds it (`healthpipe person`): a
    /// time a person typed into a pipeline without an offset or a `timezone` is read on their clock.
    /// Empty when the run has a zone, no store, or the people have none yet.
    public var personZones: [String: ZoneHistory] = [:]

    public init(timezone: String? = nil, subject: String = "default", baseDirectory: String = FileManager.default.currentDirectoryPath,
                pluginPaths: [String] = []) {
        self.timezone = timezone
        self.subject = subject
        self.baseDirectory = baseDirectory
        self.pluginPaths = pluginPaths
    }
}
