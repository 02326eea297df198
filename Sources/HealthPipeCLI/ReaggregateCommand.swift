import ArgumentParser
struct ReaggregateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reaggregate", abstract: "todo")
    func run() throws {}
}
