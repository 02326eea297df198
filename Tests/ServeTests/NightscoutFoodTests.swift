import Foundation
import Testing

/// Nightscout's food database (issue 39: `/api/v1/food` answered 404), kept in the store: what a
/// client posts is listed back whole with its `_id` and `created_at`, quick picks as Nightscout's
/// query selects them, a PUT replaces by `_id`, a DELETE removes — and a server started again on
/// the same database lists the same foods.
@Suite struct NightscoutFoodTests {
    typealias S = NightscoutSupport

    static func json(_ r: HTTPExchange) throws -> [[String: Any]] {
        guard let docs = r.json as? [[String: Any]] else { throw ServeTestError("\(r.status) \(r.text)") }
        return docs
    }

    @Test func foodsAreStoredListedReplacedAndDeleted() throws {
        let db = S.database()
        var server = try S.server(db)
        #expect(try S.get(server, "/api/v1/food").isEmpty)
        // Nightscout's food editor's fields (lib/food/food.js): a food, and quick picks of foods.
        let body = #"""
            [{"type":"food","category":"Bread","subcategory":"","name":"Toast","portion":30,"carbs":14,"fat":1,"protein":3,"energy":300,"gi":2,"unit":"g"},
             {"type":"quickpick","name":"Breakfast","foods":[{"name":"Toast","portions":2,"carbs":14}],"carbs":28,"hideafteruse":true,"hidden":"false","position":2},
             {"type":"quickpick","name":"Snack","foods":[],"carbs":10,"hidden":"false","position":1},
             {"type":"quickpick","name":"Old","foods":[],"carbs":5,"hidden":"true","position":0}]
            """#
        let posted = try Self.json(try S.send(server, "/api/v1/food", Data(body.utf8)))
        #expect(posted.count == 4)
        let ids = posted.compactMap { $0["_id"] as? String }
        #expect(ids.count == 4 && ids.allSatisfy { $0.count == 24 && $0.allSatisfy(\.isHexDigit) } && Set(ids).count == 4)
        #expect(posted.allSatisfy { ($0["created_at"] as? String)?.hasSuffix("Z") == true })

        let listed = try S.get(server, "/api/v1/food.json")
        #expect(listed.map { $0["name"] as? String } == ["Toast", "Breakfast", "Snack", "Old"])
        #expect(listed[0]["portion"] as? Int == 30 && listed[0]["_id"] as? String == ids[0])
        #expect((listed[1]["foods"] as? [[String: Any]])?.first?["portions"] as? Int == 2)
        #expect(try S.get(server, "/api/v1/food/quickpicks").map { $0["name"] as? String } == ["Snack", "Breakfast"])
        #expect(try S.get(server, "/api/v1/food/regular").map { $0["name"] as? String } == ["Toast"])

        // PUT replaces the document of its _id, keeping its place.
        var toast = listed[0]
        toast["carbs"] = 15
        let put = try S.send(server, "/api/v1/food", try JSONSerialization.data(withJSONObject: toast), method: "PUT")
        #expect(put.status == 200, "\(put.text)")
        #expect(try S.get(server, "/api/v1/food").map { $0["carbs"] as? Int } == [15, 28, 10, 5])
        #expect(try S.send(server, "/api/v1/food", Data(#"{"_id":"nope","name":"x"}"#.utf8), method: "PUT").status == 400)

        let deleted = try S.send(server, "/api/v1/food/" + ids[3], Data(), method: "DELETE", headers: ["api-secret": S.hash])
        #expect(deleted.status == 200 && deleted.text == "{}", "\(deleted.text)")
        #expect(try S.send(server, "/api/v1/food/not-an-id", Data(), method: "DELETE", headers: ["api-secret": S.hash]).status == 400)
        #expect(server.stop() == 0)

        server = try S.server(db)
        #expect(try S.get(server, "/api/v1/food").map { $0["name"] as? String } == ["Toast", "Breakfast", "Snack"])
        #expect(server.stop() == 0)
    }
}
