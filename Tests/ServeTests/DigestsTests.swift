import XCTest
@testable import HealthPipeServe

/// The server's hashes and MACs against published test vectors (FIPS 180-2 examples, RFC 4231), so the
/// libcrypto binding is checked by values nobody here computed.
final class DigestsTests: XCTestCase {
    func testHashesOfABC() {
        XCTAssertEqual(Digests.hex(Digests.hash(.sha1, "abc")), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(Digests.hex(Digests.hash(.sha256, "abc")),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(Digests.hex(Digests.hash(.sha512, "abc")),
                       "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
                       + "454d4423643ce80e2a9ac94fa54ca49f")
        XCTAssertEqual(Digests.hex(Digests.hash(.sha1, "")), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    func testHMACSHA256OfRFC4231() {
        // Test case 1: key 0x0b × 20, "Hi There".
        XCTAssertEqual(Digests.hex(Digests.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), "Hi There")),
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: key "Jefe".
        XCTAssertEqual(Digests.hex(Digests.hmacSHA256(key: Array("Jefe".utf8), "what do ya want for nothing?")),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block (hashed first).
        XCTAssertEqual(Digests.hex(Digests.hmacSHA256(key: [UInt8](repeating: 0xaa, count: 131),
                                                      "Test Using Larger Than Block-Size Key - Hash Key First")),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func testRandomBytesDiffer() {
        let a = Digests.randomBytes(16), b = Digests.randomBytes(16)
        XCTAssertEqual(a.count, 16)
        XCTAssertNotEqual(a, b)
    }
}
