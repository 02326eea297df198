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
