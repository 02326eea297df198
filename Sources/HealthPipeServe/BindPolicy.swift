/// Where the server may listen: loopback always; any other address only with an API secret, so
/// that nothing on a network can read or write a person's health data without it.
public enum BindPolicy {
    /// `localhost`, `::1` and the addresses of 127.0.0.0/8 written as a real dotted IPv4 address —
    /// not a name that merely starts with `127.` (`127.x.attacker.example` is someone's DNS).
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        return h == "localhost" || h == "::1" || h == "[::1]" || dottedIPv4(h)?.first == 127
    }

    /// The four bytes of a dotted-decimal IPv4 address (`a.b.c.d`, each 0–255 without leading
    /// zeros), nil for anything else.
    static func dottedIPv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [Int] = []
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  part.utf8.count == 1 || part.utf8.first != 48, let value = Int(part), value <= 255 else { return nil }
            bytes.append(value)
        }
        return bytes
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
