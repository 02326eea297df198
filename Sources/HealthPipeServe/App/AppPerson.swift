import Charts
import Foundation

/// Whose screens these are: the person in the address (`?person=NAME`). Every link and form of a
/// screen goes through `link`, so following it keeps the person and a form writes to them.
struct AppPerson: Sendable {
    static let parameter = "person"
    let name: String

    /// `path` for this person: `/days?from=…#x` → `/days?from=…&person=NAME#x`.
    func link(_ path: String) -> String {
        let (base, fragment) = path.firstIndex(of: "#").map { (String(path[..<$0]), String(path[$0...])) } ?? (path, "")
        return base + (base.contains("?") ? "&" : "?") + Self.parameter + "=" + Self.encoded(name) + fragment
    }

    /// A query value: anything but unreserved characters percent-encoded (`&`, `+`, `#`, `=` included).
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A hidden field that carries the person through a GET form (the date picker, a period's window).
    var hiddenField: String { "<input type=\"hidden\" name=\"\(Self.parameter)\" value=\"" + Markup.escape(name) + "\">" }
}

/// The header's person switcher: a GET form to the same screen (its window kept) with a select of
/// the database's people — keyboard reachable, and with its own button, so it works without the script.
struct PersonSwitcher {
    let people: [String]
    let current: String
    /// The screen's path and its query fields other than the person and a form's message.
    let path: String
    let kept: [(String, String)]

    func render(_ m: inout Markup) {
        m.raw("<form class=\"people\" id=\"people\" method=\"get\" action=\"")
        m.escaped(path)
        m.raw("\"><label for=\"person-picker\">Person</label><select id=\"person-picker\" name=\"\(AppPerson.parameter)\">")
        for p in people {
            m.raw("<option value=\"")
            m.escaped(p)
            m.raw("\"" + (p == current ? " selected" : "") + ">")
            m.escaped(p)
            m.raw("</option>")
        }
        m.raw("</select>")
        for (name, value) in kept {
            m.raw("<input type=\"hidden\" name=\"")
            m.escaped(name)
            m.raw("\" value=\"")
            m.escaped(value)
            m.raw("\">")
        }
        m.raw("<button type=\"submit\" class=\"btn\">Show</button></form>")
    }
}

/// The page for someone the database does not hold: what was asked for, in plain words, and a link
/// to each person who is there.
struct PersonNotFoundPage {
    let missing: PersonNotFound

    static func sentence(_ missing: PersonNotFound) -> String {
        "There is no one called \u{201C}\(missing.name.prefix(80))\u{201D} in this database."
    }

    var html: Markup {
        var m = Markup(capacity: 2048)
        m.raw("<section id=\"no-person\" class=\"card\"><h2>No such person</h2><p>")
        m.escaped(Self.sentence(missing))
        if missing.people.isEmpty {
            m.raw(" It holds no one yet.</p>")
        } else {
            m.raw(" The people here:</p><ul class=\"entries\">")
            for p in missing.people {
                m.raw("<li><a href=\"")
                m.escaped(AppPerson(name: p).link("/"))
                m.raw("\">")
                m.escaped(p)
                m.raw("</a></li>")
            }
            m.raw("</ul>")
        }
        m.raw("</section>")
        return m
    }
}
