import Foundation

/// Small generated inputs for the scale-out tests: Clarity exports of a few readings per participant,
/// deterministic in the participant's number, and an independent FNV-1a 64 to check the shard contract.
enum ScaleFixtures {
    /// A 14-column Clarity export of `readings` EGV rows at 5-minute steps from midnight of March 1 + `participant`
    /// days, 2024 (naive local time): participants never share a reading's key, even under one subject.
    static func clarity(_ name: String, participant: Int, readings: Int = 6, in dir: URL) throws -> URL {
        var text = "Index,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,Patient Info,Device Info,Source Device ID,"
            + "Glucose Value (mg/dL),Insulin Value (u),Carb Value (grams),Duration (hh:mm:ss),"
            + "Glucose Rate of Change (mg/dL/min),Transmitter Time (Long Integer),Transmitter ID\n"
            + "1,,Device,,,Dexcom G6 Mobile App,iOS G6,,,,,,,\n"
        let first = CivilDateForTests.epoch(2024, 3, 1) + Int64(participant % 28) * 86_400
        for i in 0..<readings {
            let stamp = CivilDateForTests.iso(first + Int64(i) * 300).replacingOccurrences(of: " ", with: "T")
            let glucose = 70 + (participant * 37 + i * 11) % 150
            text += "\(i + 2),\(stamp),EGV,,,,iOS G6,\(glucose),,,,,\(i),8ABCDE\n"
        }
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// FNV-1a 64 over UTF-8 then MurmurHash3's fmix64, written out here again so the tests pin the
    /// documented function (docs/scale-out.md).
    static func shardHash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        h ^= h >> 33; h = h &* 0xff51afd7ed558ccd; h ^= h >> 33; h = h &* 0xc4ceb9fe1a85ec53; h ^= h >> 33
        return h
    }

    static func shard(of id: String, count: Int) -> Int { Int(shardHash(id) % UInt64(count)) }
}

extension ScaleFixtures {
    /// FNV-1a 64 as 16 hex digits (part names).
    static func fnv1a64Hex(_ text: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
