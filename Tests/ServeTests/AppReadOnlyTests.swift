import Foundation
@testable import HealthPipeServe
import Testing

/// A reader sees no write controls (issue 38 item 7): a read-only token and an `--open-reads` visitor
/// may look at every screen, but the server refuses their forms (WriteAccessTests) — so no screen
/// draws a form that writes, and each says once why ("Read-only access"). The owner signed in with
/// the secret sees the forms, and every delete asks first, as plain HTML (no script needed).
/// Real CareLink export (Tests/Fixtures/real/carelink) with a typed meal, a report and a threshold.
@Suite struct AppReadOnlyTests {
    typealias T = AppPeopleTests
    typealias S = NightscoutSupport
    static let day = "2009-12-14"
    static let screens = ["/", "/day/\(day)", "/agp", "/days?from=2009-12-01&to=2009-12-31", "/reports?month=2009-12", "/settings"]

    static func database() throws -> URL {
        let db = ServeProcess.tempDir().appendingPathComponent("family.sqlite")
        let file = ServeProcess.packageRoot.appendingPathComponent("Tests/Fixtures/real/carelink/carelink-en-paradigm522-v101.csv")
        let binary = ServeProcess.binary.path
        for arguments in [["import", file.path, "--timezone", "America/Los_Angeles", "--quiet"],
                          ["add", "meal", "--carbs", "40", "--name", "Pasta", "--at", "\(day) 12:30"],
                          ["reports", "add", "--value=body_temperature=37.2:3", "--value=heart_rate=70:2", "--at", "\(day) 09:00"],
                          ["alerts", "set", "--threshold=heart_rate above 100 days=7 importance=1"]] {
            let subject = arguments[0] == "alerts" ? [] : ["--subject", "ben"]
            let r = AppDatabase.run(binary, arguments + ["--db", db.path] + subject, environment: T.utc)
            guard r.code == 0 else { throw ServeTestError("\(arguments[0]) failed: \(r.output)") }
        }
        return db
    }

    /// The app's forms that change the store: every POST form but the browser's own preferences.
    static func writeForms(_ page: String) -> [String] {
        T.matches(#"<form method="post"[^>]*action="(/[^"?]*)"#, in: page).map { $0[1] }
            .filter { $0.hasPrefix("/app/") && $0 != AppRoutes.preferencesPath }
    }

    func get(_ port: Int, _ path: String, headers: [String: String]) throws -> String {
        try WriteAccessTests.send(port, "GET", path, body: "", headers: headers)
    }

    @Test func aReaderSeesNoFormsThatWriteAndIsToldWhy() throws {
        let db = try Self.database()
        for reader in try WriteAccessTests.readers() {
            let server = try S.server(db.path, reader.extra)
            defer { _ = server.stop() }
            for screen in Self.screens {
                let query = reader.query.isEmpty ? "" : (screen.contains("?") ? "&" : "?") + reader.query
                let page = try get(server.port, screen + query, headers: reader.headers)
                #expect(WriteAccessTests.status(page) == 200, "\(reader.name) \(screen): \(page.prefix(200))")
                #expect(Self.writeForms(page).isEmpty, "\(reader.name) \(screen): \(Self.writeForms(page))")
                #expect(!page.contains(">Delete<") && !page.contains("Add insulin") && !page.contains("Save report"), "\(reader.name) \(screen)")
                #expect(page.components(separatedBy: "Read-only access").count - 1 == 1, "\(reader.name) \(screen)")
            }
            // What was entered is still shown, without its forms.
            let day = try get(server.port, "/day/\(Self.day)" + (reader.query.isEmpty ? "" : "?" + reader.query), headers: reader.headers)
            #expect(day.contains("meal Pasta: carbs 40 g"), "\(reader.name)")
        }
        // The owner (the secret) sees the forms, and no line saying otherwise.
        let server = try S.server(db.path)
        defer { _ = server.stop() }
        for screen in Self.screens where screen != "/agp" {
            let page = try get(server.port, screen, headers: ["api-secret": S.hash])
            #expect(!Self.writeForms(page).isEmpty, "owner \(screen)")
            #expect(!page.contains("Read-only access"), "owner \(screen)")
        }
    }

    /// Every delete (an entry, a report, a watched threshold) is a question first: the button opens
    /// a `<details>` naming what goes, whose own button deletes — no delete form outside one.
    @Test func everyDeleteAsksFirstWithoutTheScript() throws {
        let db = try Self.database()
        let server = try S.server(db.path)
        defer { _ = server.stop() }
        let owner = ["api-secret": S.hash]
        for (screen, action, named) in [("/day/\(Self.day)", "/app/entries/delete", "meal Pasta: carbs 40 g"), ("/reports?month=2009-12", "/app/reports/delete", "report of"),
                                        ("/settings", "/app/settings/alerts", "average of heart rate")] {
            let page = try get(server.port, screen, headers: owner)
            let questions = T.matches(#"<details class="edit confirm-delete">[\s\S]*?</details>"#, in: page).map { $0[0] }
            #expect(!questions.isEmpty, "\(screen)")
            for q in questions {
                #expect(q.contains("This cannot be undone") && q.contains("Yes, "), "\(screen): \(q.prefix(300))")
            }
            #expect(questions.contains { $0.contains(named) }, "\(screen)")
            // Every delete form of the page sits inside its question.
            let deletes = page.components(separatedBy: "class=\"btn danger\">Yes, ").count - 1
            let all = Self.writeForms(page).filter { $0 == action }.count
            let inQuestions = questions.map { Self.writeForms($0).filter { $0 == action }.count }.reduce(0, +)
            #expect(deletes == questions.count, "\(screen)")
            if action != "/app/settings/alerts" { #expect(all == inQuestions, "\(screen): \(all) delete forms, \(inQuestions) asked") }
        }
        // Confirming deletes: the form inside the question posts as any form does.
        let page = try get(server.port, "/day/\(Self.day)", headers: owner)
        let q = try #require(T.matches(#"<details class="edit confirm-delete">[\s\S]*?</details>"#, in: page).first?[0])
        let action = T.unescaped(try #require(T.matches(#"action="([^"]+)""#, in: q).first?[1]))
        let id = try #require(T.matches(#"name="id" value="([^"]+)""#, in: q).first?[1])
        let form = try WriteAccessTests.formCredentials(server.port)
        let reply = try WriteAccessTests.send(server.port, "POST", action, body: "id=" + id + "&back=/",
                                              headers: ["api-secret": S.hash, "Cookie": form.cookie, "X-Form-Token": form.token,
                                                        "Content-Type": "application/x-www-form-urlencoded"])
        #expect([200, 302, 303].contains(WriteAccessTests.status(reply)), "\(reply.prefix(300))")
        let after = try get(server.port, "/day/\(Self.day)", headers: owner)
        #expect(after.contains("id=\"day\"") && !after.contains(id), "the meal is gone")
    }
}
