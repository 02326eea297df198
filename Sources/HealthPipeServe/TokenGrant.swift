/// What a token of `healthpipe serve token` grants: its client's name, its role, and — for a token
/// made with `--subject` — the one person whose data it reads (and, with write, writes).
struct TokenGrant: Equatable, Sendable {
    var name: String
    var role: AccessRole
    /// nil: every person, as before tokens could name one.
    var person: String?
}

/// The person the request being answered is limited to (a person's token), bound by `AccessGuard`
/// around the route, so the API's shared code reads it without every route passing it on.
enum CallerPerson {
    @TaskLocal static var current: String?
}

extension ServeSettings {
    /// These settings as the request being answered may use them: a person's token reads and writes
    /// only that person, whatever `serve --subject` says. Taken on the request's task, before work
    /// moves to the store's threads (a task-local does not follow it there).
    var forCaller: ServeSettings {
        guard let person = CallerPerson.current else { return self }
        var scoped = self
        scoped.subject = person
        return scoped
    }
}
