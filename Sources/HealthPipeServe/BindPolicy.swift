/// Where the server may listen: loopback always; any other address only with an API secret, so
/// that nothing on a network can read or write a person's health data without it.
public enum BindPolicy {
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        return h == "localhost" || h == "::1" || h == "[::1]" || h.hasPrefix("127.") && h.split(separator: ".").count == 4
    }

    public static func check(host: String, secret: APISecret?) throws {
        if !isLoopback(host) && secret == nil {
            throw ServeError.configuration("--host \(host) listens beyond this machine: set an API secret first "
                                           + "(the API_SECRET environment variable or --secret-file, at least \(APISecret.minimumLength) characters)")
        }
    }

    /// Host names a browser may send to a loopback server. Anything else is a DNS-rebinding page
    /// pointing its own name at 127.0.0.1, and is refused.
    static func isLoopbackHostHeader(_ value: String) -> Bool {
        var host = Substring(value)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return isLoopback(String(host))
    }
}
