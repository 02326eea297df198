import HealthPipeCore
import Testing

/// Options declared once in a descriptor and read by name (`ComponentBuilder.value/required`): the
/// descriptor refuses undeclared keys before `build`, and a read is decoded strictly where it stands.
@Suite struct ComponentOptionsTests {
    /// The stage built: what `build` read, as text.
    final class Built: Stage {
        let read: String
        init(_ read: String = "") { self.read = read }
    }

    /// A component with a required path, an optional count and a list; `build` reads them all.
    static let component = ComponentDescriptor(
        name: "probe", role: .sink, family: "tests", summary: "reads its options",
        options: [
            OptionDoc("path", "path", required: true, "where"),
            OptionDoc("count", "integer", default: "3", "how many"),
            OptionDoc("names", "list of text", default: "[]", "which"),
        ],
        build: { b in
            let path: String = try b.required("path")
            let count = try b.value("count") ?? 3
            let names: [String] = try b.value("names") ?? []
            return Built("\(path) \(count) \(names)")
        })

    /// The builder after `c` was built from `yaml`, and what the build read.
    @discardableResult
    func build(_ yaml: String, env: [String: String] = [:], _ c: ComponentDescriptor = component) throws -> (builder: ComponentBuilder, read: String) {
        let doc = try ConfigDocument(file: "p.yml", text: yaml, environment: env)
        let b = ComponentBuilder(stageName: "probe", document: doc, node: doc.root, settings: RunSettings())
        let stage = try c.build(b)
        return (b, (stage as? Built)?.read ?? "")
    }

    @Test func readsEachOptionByItsNameAndType() throws {
        let full = try build("path: ${DIR}/out\ncount: 7\nnames: [a, b]\n", env: ["DIR": "/tmp"])
        #expect(full.read == "/tmp/out 7 [\"a\", \"b\"]")
        #expect(full.builder.optionsRead.names == ["path", "count", "names"])
        // Unset and null both mean "not set": the default applies; a single value is a one-item list.
        #expect(try build("path: x\ncount: ~\nnames: a\n").read == "x 3 [\"a\"]")
    }

    @Test func aMissingRequiredOptionIsNamed() {
        #expect { try build("count: 1\n") } throws: { e in
            (e as? ConfigError)?.message == "missing required option 'path'"
        }
    }

    @Test func aWrongTypePointsAtTheValue() {
        #expect { try build("path: x\ncount: often\n") } throws: { e in
            guard let c = e as? ConfigError else { return false }
            return c.line == 2 && c.column == 8 && c.message.contains("whole number") && c.message.contains("often")
        }
    }

    @Test func undeclaredKeysAreRefusedBeforeBuildAllAtOnce() {
        #expect { try build("path: x\ncont: 1\nname: [a]\n") } throws: { e in
            guard let all = e as? ConfigErrors, all.errors.count == 2 else { return false }
            return all.errors[0].suggestion == "count" && all.errors[1].suggestion == "names"
                && all.errors[0].message.contains("(valid: count, inputs, names, on_error, path, type)")
        }
    }

    @Test func readingAnUndeclaredNameIsAnError() {
        let sloppy = ComponentDescriptor(
            name: "sloppy", role: .sink, family: "tests", summary: "reads what it does not declare",
            options: [OptionDoc("path", "path", required: true, "where")],
            build: { b in
                _ = try b.value("colour", as: String.self)
                return Built()
            })
        #expect { try build("path: x\n", sloppy) } throws: { e in
            (e as? ConfigError)?.message.contains("'colour' is read but not among the component's documented options") == true
        }
    }

    @Test func aDelegatingSourceLeavesUnknownKeysToTheFormatItPicks() throws {
        let open = ComponentDescriptor(
            name: "open", role: .source, family: "tests", summary: "hands its options on",
            options: [OptionDoc("format", "text", "the format")], delegatesOptions: true,
            build: { _ in Built() })
        try build("format: x\nambiguous_time: earlier\n", open)
    }
}
