import HealthPipeCore
import Testing

@Suite struct ConfigDecodingTests {
    struct Options: Decodable {
        var path: String
        var interval: Int?
        var enabled: Bool?
    }

    func decode(_ yaml: String, env: [String: String] = [:]) throws -> Options {
        let doc = try ConfigDocument(file: "p.yml", text: yaml, environment: env)
        return try StrictNodeDecoder(document: doc).decode(Options.self, from: doc.root)
    }

    @Test func decodesAndInterpolatesEnvironment() throws {
        let o = try decode("path: ${DATA}/x.csv\ninterval: 5\nenabled: yes\n", env: ["DATA": "/tmp"])
        #expect(o.path == "/tmp/x.csv" && o.interval == 5 && o.enabled == true)
        #expect(try decode("path: ${MISSING:-fallback}\n").path == "fallback")
    }

    @Test func unsetVariableIsLocatedError() {
        #expect { try decode("interval: 1\npath: ${NOPE}\n") } throws: { e in
            let c = e as? ConfigError
            return c?.line == 2 && c?.column == 7 && c!.description.contains("NOPE")
        }
    }

    @Test func unknownKeySuggestsNearest() {
        #expect { try decode("path: a\nintervall: 5\n") } throws: { e in
            guard let c = e as? ConfigError else { return false }
            return c.line == 2 && c.column == 1 && c.suggestion == "interval" && c.description.contains("p.yml:2:1")
                && c.description.contains("intervall: 5")
        }
    }

    @Test func typeMismatchPointsAtValue() {
        #expect { try decode("path: a\ninterval: often\n") } throws: { e in
            guard let c = e as? ConfigError else { return false }
            return c.line == 2 && c.column == 11 && c.message.contains("whole number") && c.message.contains("often")
        }
    }

    @Test func missingRequiredKey() {
        #expect { try decode("interval: 3\n") } throws: { e in
            (e as? ConfigError)?.message.contains("path") == true
        }
    }

    @Test func yamlSyntaxErrorsAreLocated() {
        #expect { try decode("path: [unclosed\n") } throws: { e in (e as? ConfigError)?.line ?? 0 >= 1 }
    }

    @Test func suggester() {
        #expect(NameSuggester.nearest(to: "dexcom-clarty", in: ["dexcom-clarity", "libreview"]) == "dexcom-clarity")
        #expect(NameSuggester.nearest(to: "zzzzzz", in: ["dexcom-clarity", "libreview"]) == nil)
    }
}
