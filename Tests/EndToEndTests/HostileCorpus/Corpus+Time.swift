import Foundation

/// DST fall-back: a file whose clock goes back through the repeated hour keeps both passes, on
/// their own instants (equal values included), whichever order the file lists them in.
extension HostileCorpus {
    /// Local wall-clock times of readings every 5 minutes from 00:00 to 03:00 on 2024-10-27 in
    /// Europe/London, as a device writes them: 01:00–01:55 occurs twice. 49 readings, 23:00Z–03:00Z.
    static let fallBackWallClock: [(hour: Int, minute: Int)] = {
        var times: [(Int, Int)] = []
        for m in stride(from: 0, to: 120, by: 5) { times.append((m / 60, m % 60)) }
        for m in stride(from: 60, to: 120, by: 5) { times.append((m / 60, m % 60)) }
        for m in stride(from: 120, through: 180, by: 5) { times.append((m / 60, m % 60)) }
        return times
    }()

    static func fallBackCheck(_ box: Sandbox) -> [String] {
        let starts = box.query("SELECT start FROM measurements ORDER BY start").compactMap { Int($0.first ?? "") }
        guard starts.count == 49 else { return ["\(starts.count) readings stored, expected 49"] }
        let steps = Set(zip(starts.dropFirst(), starts).map { $0 - $1 })
        let first = 1_729_983_600  // 2024-10-26T23:00:00Z
        return steps == [300] && starts.first == first ? [] : ["readings are not 5 minutes apart from 23:00Z: steps \(steps)"]
    }

    static func clarityFallBack(descending: Bool) -> String {
        var rows = fallBackWallClock.enumerated().map { i, t in
            "\(i + 1),2024-10-27T\(String(format: "%02d:%02d", t.hour, t.minute)):00,EGV,,,,G7,100,,,,"
        }
        if descending { rows.reverse() }
        return CorpusData.text(CorpusData.clarityLines[0]) + "\n" + rows.joined(separator: "\n") + "\n"
    }

    static let time: [HostileCase] = [
        HostileCase("dst-fall-back-clarity-in-file-order", Expectation(exit: 0, measurements: 49, check: fallBackCheck)) { box in
            Invocation(arguments: ["import", try box.write("dst.csv", clarityFallBack(descending: false)), "--db", box.db,
                                   "--timezone", "Europe/London"])
        },
        HostileCase("dst-fall-back-clarity-newest-first", Expectation(exit: 0, measurements: 49, check: fallBackCheck)) { box in
            Invocation(arguments: ["import", try box.write("dst.csv", clarityFallBack(descending: true)), "--db", box.db,
                                   "--timezone", "Europe/London"])
        },
        HostileCase("dst-fall-back-libreview", Expectation(exit: 0, measurements: 49, check: fallBackCheck)) { box in
            let rows = fallBackWallClock.map { t in "Libre,1,27-10-2024 \(String(format: "%02d:%02d", t.hour, t.minute)),0,100" }
            let text = "Glucose Data,Generated on\nDevice,Serial Number,Device Timestamp,Record Type,Historic Glucose mg/dL\n"
                + rows.joined(separator: "\n") + "\n"
            return Invocation(arguments: ["import", try box.write("dst.csv", text), "--db", box.db, "--timezone", "Europe/London"])
        },
    ]
}
