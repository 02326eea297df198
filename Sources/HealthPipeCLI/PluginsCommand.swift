import ArgumentParser
import HealthPipeCore

struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins", abstract: "List every registered component with its options and documentation.")

    @Argument(help: "Show only this component.") var name: String?
    @OptionGroup var shared: SharedOptions

    func run() throws {
        let registry: ComponentRegistry
        do { registry = try shared.registry() } catch { throw configFailure(error) }
        var components = registry.all()
        if let name {
            guard let c = registry.component(named: name) else {
                throw configFailure(RegistryError(message: "no component '\(name)'"
                    + (NameSuggester.nearest(to: name, in: components.map(\.name)).map { " (did you mean '\($0)'?)" } ?? "")))
            }
            components = [c]
        }
        for role in StageRole.allCases {
            let group = components.filter { $0.role == role }
            guard !group.isEmpty else { continue }
            print("\(role.section.uppercased())")
            for c in group {
                print("  \(c.name)  [\(c.family)]")
                print(wrap(c.summary, indent: "      "))
                if !c.accepts.isEmpty { print("      takes: \(c.accepts)") }
                if !c.produces.isEmpty { print("      emits: \(c.produces)" + (c.passesThrough ? " (and passes its input through)" : "")) }
                if c.detect != nil { print("      detected by content in `healthpipe import`") }
                for o in c.options {
                    print("      \(o.name): \(o.type)" + (o.defaultValue.map { " = \($0)" } ?? (o.required ? " (required)" : "")))
                    print(wrap(o.doc, indent: "          "))
                }
                print("")
            }
        }
        print("Every stage also takes: inputs (transforms and sinks), on_error: fail | skip | quarantine (default quarantine).")
    }

    private func wrap(_ text: String, indent: String, width: Int = 100) -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > width, line.count > indent.count { lines.append(line); line = indent }
            line += (line.count > indent.count ? " " : "") + word
        }
        if line.count > indent.count { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
