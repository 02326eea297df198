import ArgumentParser
import Foundation
@testable import HealthPipeCLI
import HealthPipeCore
import Testing

/// Issue 36, numbers at the boundary: every option of every command — enumerated from
/// argument-parser's own description of the command tree (`_dumpHelp`), so a new flag is covered
/// without editing this test — is fed the numbers that broke commands before (Int.min, Int.max,
/// ±1e308, nan, ±inf, −0, 1e-320). Each is either refused as a usage error naming the flag (exit 2:
/// `HealthPipeMain.main` maps argument-parser's 64 to 2), or accepted only where its `NumberRule`
/// allows it; no numeric flag may hold a raw `Double`/`Int` that skipped the rule.
@Suite struct NumberFlagPropertyTests {
    /// `nan` first: an option that takes it as text (no number anywhere in the parsed command) is a
    /// text option, and the other values are not tried on it (most options are text; each parse costs).
    static let hostile = ["nan", "-9223372036854775808", "9223372036854775807", "1e308", "-1e308", "inf", "-inf", "-0", "1e-320"]

    /// One option of one command, as argument-parser describes it.
    struct OptionInfo: CustomStringConvertible {
        let path: [String]
        let flag: String
        var description: String { (path + [flag]).joined(separator: " ") }
    }

    /// A command's path and its argument descriptions (JSON objects of `ToolInfoV0`).
    struct CommandInfo {
        let path: [String]
        let arguments: [[String: Any]]
    }

    static func commands() throws -> [CommandInfo] {
        let json = try JSONSerialization.jsonObject(with: Data(HealthPipeMain._dumpHelp().utf8)) as! [String: Any]
        var out: [CommandInfo] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            out.append(CommandInfo(path: path, arguments: command["arguments"] as? [[String: Any]] ?? []))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as! String]) }
        }
        walk(json["command"] as! [String: Any], [])
        return out
    }

    static func flag(_ argument: [String: Any]) -> String? {
        guard let name = argument["preferredName"] as? [String: Any], let text = name["name"] as? String else { return nil }
        switch name["kind"] as? String {
        case "long": return "--" + text
        case "short": return "-" + text
        case "longWithSingleDash": return "-" + text
        default: return nil
        }
    }

    /// Values for the command's other required arguments, so that only the option under test decides.
    static func filling(_ command: CommandInfo, except tested: String) -> [String] {
        var options: [String] = [], positionals: [String] = []
        for a in command.arguments where (a["isOptional"] as? Bool) == false && (a["kind"] as? String) != "flag" {
            let value = (a["allValues"] as? [String])?.first ?? "1"
            if (a["kind"] as? String) == "positional" { positionals.append("x") } else if let f = flag(a), f != tested { options.append("\(f)=\(value)") }
        }
        return options + positionals
    }

    /// The command type at `path` (parsing the leaf alone keeps argument-parser's debug-build
    /// validation of the whole tree out of every one of the thousands of parses).
    static func command(at path: [String]) -> any ParsableCommand.Type {
        var type: any ParsableCommand.Type = HealthPipeMain.self
        for name in path {
            type = type.configuration.subcommands.first { $0._commandName == name }!
        }
        return type
    }

    static func allOptions() throws -> [(CommandInfo, OptionInfo)] {
        try commands().flatMap { c in
            c.arguments.filter { ($0["kind"] as? String) == "option" && ($0["shouldDisplay"] as? Bool ?? true) }
                .compactMap { a in flag(a).map { (c, OptionInfo(path: c.path, flag: $0)) } }
        }
    }

    @Test func everyOptionOfEveryCommandRefusesOrBoundsTheHostileNumbers() throws {
        let options = try Self.allOptions()
        #expect(options.count > 100, "the command tree was not enumerated")
        var numericFlags = Set<String>()
        var problems: [String] = []
        for (command, option) in options {
            for value in Self.hostile {
                let args = ["\(option.flag)=\(value)"] + Self.filling(command, except: option.flag)
                let type = Self.command(at: command.path)
                do {
                    let parsed = try type.parseAsRoot(args)
                    let scan = NumberScan(parsed)
                    if let n = Double(value), scan.raw.contains(where: { $0 == n || ($0.isNaN && n.isNaN) }) {
                        problems.append("\(option) took \(value) as a raw number, without a NumberRule")
                    }
                    for f in scan.flags where !f.rule.allows(f.value) { problems.append("\(option) holds \(f.value) outside \(f.rule)") }
                    if !scan.flags.isEmpty, Double(value).map({ n in scan.flags.contains { $0.value == n || ($0.value == 0 && n == 0) } }) == true {
                        numericFlags.insert(option.description)
                    }
                    if value == "nan", !scan.raw.contains(where: \.isNaN) { break }  // a text option
                } catch {
                    let message = type.message(for: error)
                    guard message.contains("The value '\(value)' is invalid for '\(option.flag)") else {
                        // Parsed, then refused by the command's own validate(): still a usage error.
                        if type.exitCode(for: error) != .validationFailure {
                            problems.append("\(option) \(value): refused with exit \(type.exitCode(for: error).rawValue): \(message)")
                        }
                        continue
                    }
                    numericFlags.insert(option.description)
                    if type.exitCode(for: error) != .validationFailure {
                        problems.append("\(option) \(value): exit \(type.exitCode(for: error).rawValue), not a usage error")
                    }
                }
            }
        }
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
        // The flags of issue 36's list are among those the enumeration found numeric.
        for known in ["stream --gesture-gap", "stream --exit-idle", "stream --silence", "stream --rate", "stream --int16-scale",
                      "history --offset", "chart history --offset", "days --last", "reports list --importance", "add meal --carbs"] {
            #expect(numericFlags.contains(known), "\(known) was not seen as a numeric flag")
        }
    }

    /// No command declares a numeric option or argument of a raw number type: each is a `NumberFlag`
    /// read through its rule (checked on the declarations, so a flag no hostile value reaches counts too).
    @Test func noCommandDeclaresARawNumberOption() {
        var raw: [String] = []
        func visit(_ type: any ParsableArguments.Type, _ name: String, depth: Int = 0) {
            for child in Mirror(reflecting: type.init()).children {
                let declared = String(describing: Swift.type(of: child.value))
                if let group = child.value as? any OptionGroupProbe, depth < 4 { visit(group.groupType, name, depth: depth + 1); continue }
                let wrapper = declared.hasPrefix("Option<") || declared.hasPrefix("Argument<")
                let numeric = wrapper && ["Double", "Float", "Int", "Int64", "Int32", "UInt", "UInt64"].contains { t in
                    declared.hasSuffix("<\(t)>") || declared.hasSuffix("<Optional<\(t)>>") || declared.hasSuffix("<Array<\(t)>>")
                }
                if numeric { raw.append("\(name) \(child.label ?? "?"): \(declared)") }
            }
        }
        func walk(_ command: any ParsableCommand.Type, _ path: String) {
            visit(command, path)
            for sub in command.configuration.subcommands { walk(sub, path + " " + sub._commandName) }
        }
        walk(HealthPipeMain.self, "healthpipe")
        #expect(raw.isEmpty, Comment(rawValue: "raw numeric options (give each a NumberRule):\n" + raw.joined(separator: "\n")))
    }

    @Test func theRuleRefusesWhatTrappedAndKeepsWhatIsInRange() {
        let subnormal = Double("1e-320")!
        #expect(NumberRule.seconds.allows(0) && NumberRule.seconds.allows(3) && NumberRule.seconds.allows(subnormal))
        for v in [Double.nan, .infinity, -.infinity, 1e308, -1, Double(Int64.max)] { #expect(!NumberRule.seconds.allows(v)) }
        #expect(!NumberRule.sampleRate.allows(subnormal) && NumberRule.sampleRate.allows(119))
        #expect(!NumberRule.periodOffset.allows(Double(Int.min)) && NumberRule.periodOffset.allows(-1))
        #expect(!NumberRule.dayCount.allows(2.5) && !NumberRule.dayCount.allows(0) && NumberRule.dayCount.allows(90))
        #expect(NumberRule.seconds.read("-0") == .success(0))
        if case .failure(let e) = NumberRule.seconds.read("1e308", name: "--silence") {
            #expect(e.message == "--silence 1e+308 is not 0–31622400 seconds")
        } else {
            Issue.record("1e308 seconds was read")
        }
        #expect(NumberRule.readingEpochSeconds.allows(1_775_421_029) && !NumberRule.readingEpochSeconds.allows(0)
            && !NumberRule.readingEpochSeconds.allows(8_640_000_000_000))
    }
}

/// What a parsed command holds: its `NumberFlag`s and any raw number outside one.
struct NumberScan {
    var flags: [NumberFlag] = []
    var raw: [Double] = []

    init(_ value: Any) { visit(value, depth: 0) }

    private mutating func visit(_ value: Any, depth: Int) {
        if let f = value as? NumberFlag { flags.append(f); return }
        switch value {
        case let v as Double: raw.append(v); return
        case let v as Float: raw.append(Double(v)); return
        case let v as Int: raw.append(Double(v)); return
        case let v as Int64: raw.append(Double(v)); return
        case let v as Int32: raw.append(Double(v)); return
        case let v as UInt: raw.append(Double(v)); return
        case is String, is Substring, is Bool: return
        default: break
        }
        guard depth < 12 else { return }
        for child in Mirror(reflecting: value).children { visit(child.value, depth: depth + 1) }
    }
}

/// An `@OptionGroup`'s group type, to read its declarations.
protocol OptionGroupProbe { var groupType: any ParsableArguments.Type { get } }
extension OptionGroup: OptionGroupProbe { var groupType: any ParsableArguments.Type { Value.self } }
