import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Headers on every response, errors included: a strict Content-Security-Policy unless a route set
/// its own (the app's pages allow their own script by nonce), no sniffing, no framing, no referrer.
/// Every error answers a JSON reason (`{"error":{"message":…}}`), the router's bare 404 and a body
/// the HTTP parser refused (a malformed chunk: 400, not 500) included. What the HTTP layer answers
/// before any route runs (a request it cannot parse) gets the same from `HTTPLayerAnswers`.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = ServeContext
    static let defaultPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    /// The promised headers, in their one home (this middleware and `HTTPLayerAnswers` both call it).
    static func apply(to headers: inout HTTPFields) {
        if headers[.contentSecurityPolicy] == nil { headers[.contentSecurityPolicy] = defaultPolicy }
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.cacheControl] = headers[.cacheControl] ?? "no-store"
    }

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            // Hummingbird's own (the router's 404, a body too large) carry no message: the status's phrase is the reason.
            response = try HTTPError(error.status, headers: error.headers, message: error.body ?? error.status.reasonPhrase)
                .response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch let error as HTTPParserError {
            // The body could not be read as HTTP (a bad chunk size, …): the client's fault, said so.
            response = try HTTPError(.badRequest, headers: [.connection: "close"], message: "malformed HTTP request: \(error)")
                .response(from: request, context: context)
        } catch {
            // Anything else is our fault: say so without details, and log what it was.
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            response = try HTTPError(.internalServerError, message: "internal error").response(from: request, context: context)
        }
        Self.apply(to: &response.headers)
        return response
    }
}
