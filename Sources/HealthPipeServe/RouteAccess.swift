/// What the access rule judges: the route the router matched — its template, as Hummingbird
/// records it in `endpointPath` — never the request's raw path. The router reads `//api/v1/x`,
/// `/api/v1/x/` and `/api/v1/x` as one route, so a prefix test on the raw path could call an upload
/// an app form; deciding by the matched template cannot. A path the router matches to nothing
/// (`/./api`, `/api%2Fv1`, `/API/…`: it neither resolves dots, decodes `%2F` nor folds case) is a 404
/// whoever asks. docs/serve.md, "Security model".
enum RouteAccess: Equatable {
    /// `/api/…` and `/pebble`: Nightscout's API (watch faces read `/pebble` as Nightscout's
    /// `api:pebble` read) and the app's version poll; credentials decide.
    case api
    /// `/api/v2/authorization/request/{accessToken}`: the token in the path is the credential.
    case tokenExchange
    /// `/signin`, `/signout`: need no credentials, only the form token.
    case session
    /// The app's forms that write only the browser's own preference cookie (`/app/settings`).
    case preferenceForm
    /// The app's screens (GET) and its forms that change the store (POST `/app/…`).
    case app
    /// Nothing matched: the answer is a 404.
    case unmatched

    init(endpoint: String?) {
        guard let endpoint else { self = .unmatched; return }
        if endpoint == AuthorizationRequestRoute.template {
            self = .tokenExchange
        } else if endpoint == "/api" || endpoint.hasPrefix("/api/") || endpoint == PebbleRoute.path {
            self = .api
        } else if endpoint == SignIn.path || endpoint == SignIn.signOutPath {
            self = .session
        } else if endpoint == AppRoutes.preferencesPath {
            self = .preferenceForm
        } else {
            self = .app
        }
    }
}
