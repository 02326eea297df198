import Foundation
import Yams

/// Handed to a component's `build`: its stage name, its options node and the run settings.
public struct ComponentBuilder {
    public let stageName: String
    public let document: ConfigDocument
    public let node: Node
    public let settings: RunSettings
    /// True when everything this stage receives comes, in order, from one time-ordered source
    /// (see `ComponentDescriptor.emitsTimeOrdered`): it may process readings as they come.
    public var inputTimeOrdered = false
    /// The registry the pipeline is built from: for a source that finds its format at run time by
    /// content and builds that component (the `stdin` source of filter mode).
    public var registry: ComponentRegistry?
    /// The component's documented option names (set by its descriptor): the only keys it accepts.
    public internal(set) var declaredOptions: Set<String>?
    /// The options the component read while it was built, for the registry's compliance test.
    public let optionsRead = OptionReadLog()

    public init(stageName: String, document: ConfigDocument, node: Node, settings: RunSettings) {
        self.stageName = stageName
        self.document = document
        self.node = node
        self.settings = settings
    }

    /// Decodes the component's own options strictly (engine keys are reserved).
    public func options<T: Decodable>(_ type: T.Type) throws -> T {
        try StrictNodeDecoder(document: document, reservedKeys: PipelineSpec.engineKeys)
            .decode(T.self, from: node) { optionsRead.names.formUnion($0) }
    }

    /// A config error pointing at this component's node (or one of its option keys); in a pipeline
    /// built from a command's flags, it names the flag the option came from.
    public func error(_ message: String, option: String? = nil) -> ConfigError {
        if document.isCommandLine {
            let flag = option.flatMap { document.flags["\(stageName).\($0)"] } ?? document.flags[stageName]
            return ConfigError(file: document.file, line: 0, column: 0, message: flag.map { "\($0): \(message)" } ?? message)
        }
        var at: Node? = node
        if let option, let pair = node.mappingPairs?.first(where: { $0.key.scalarText == option }) { at = pair.value }
        return document.error(at: at, message)
    }

    /// Expands `~` and resolves a relative path against the config's folder.
    public func path(_ p: String) -> String { ComponentBuilder.resolve(p, base: settings.baseDirectory) }

    public static func resolve(_ p: String, base: String) -> String {
        if p == "-" { return p }
        if p.hasPrefix("~/") { return NSString(string: p).expandingTildeInPath }
        if p.hasPrefix("/") { return p }
        return URL(fileURLWithPath: base).appendingPathComponent(p).standardizedFileURL.path
    }

    /// The stage's time zone (its own option, else the run's default); nil when neither is set.
    public func zone(_ option: String?) throws -> TimeZone? {
        guard let name = option ?? settings.timezone else { return nil }
        guard let tz = ZoneResolver.timeZone(named: name) else {
            throw error("unknown time zone '\(name)' (use an IANA name such as Europe/London, or an offset such as +01:00)",
                        option: option == nil ? nil : "timezone")
        }
        return tz
    }
}
