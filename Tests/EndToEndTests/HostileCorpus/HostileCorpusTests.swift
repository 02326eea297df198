import Foundation
import Testing

/// The bad-input corpus (docs/reliability.md): every case runs the real binary in a fresh folder.
enum HostileCorpus {
    static var all: [HostileCase] { outputs + inputs + csv + time + xml + config + signals + streams }
}

@Suite struct HostileCorpusTests {
    @Test(arguments: HostileCorpus.all)
    func holds(_ c: HostileCase) throws {
        let problems = try HostileRunner.run(c)
        #expect(problems.isEmpty, Comment(rawValue: "\(c.name):\n  " + problems.joined(separator: "\n  ")))
    }

    @Test func corpusIsLargeAndEveryNameIsUnique() {
        #expect(HostileCorpus.all.count >= 60)
        #expect(Set(HostileCorpus.all.map(\.name)).count == HostileCorpus.all.count)
    }
}
