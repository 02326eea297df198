import Foundation
import XCTest

/// The end-to-end helper itself: a child that fills its stderr pipe while the test reads stdout must not
/// deadlock (the helper read stdout to its end before touching stderr).
final class SupportTests: XCTestCase {
    func testAFullStderrPipeDoesNotBlockTheChild() throws {
        let script = "head -c 300000 /dev/zero | tr '\\0' x >&2; echo done"
        let result = try E2E.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        XCTAssertEqual(result.code, 0)
        XCTAssertEqual(result.stdout, "done\n")
        XCTAssertEqual(result.stderr.utf8.count, 300_000)
    }
}
