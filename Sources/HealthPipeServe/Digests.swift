import CLibCrypto

/// The hashes, MACs and random bytes the server needs (Nightscout's api-secret, tokens, sessions, form tokens,
/// the API v3 JWT), from the system's libcrypto (OpenSSL, which libpq already links): building swift-crypto
/// compiled a whole copy of BoringSSL for these five functions.
enum Digests {
    enum Algorithm {
        case sha1, sha256, sha512

        fileprivate var evp: OpaquePointer {
            switch self {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha512: EVP_sha512()
            }
        }
    }

    static func hash(_ algorithm: Algorithm, _ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &length, algorithm.evp, nil)
        }
        precondition(ok == 1, "libcrypto could not hash")
        return Array(out.prefix(Int(length)))
    }

    static func hash(_ algorithm: Algorithm, _ text: String) -> [UInt8] { hash(algorithm, Array(text.utf8)) }

    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &out, &length)
            }
        }
        precondition(result != nil, "libcrypto could not compute an HMAC")
        return Array(out.prefix(Int(length)))
    }

    static func hmacSHA256(key: [UInt8], _ text: String) -> [UInt8] { hmacSHA256(key: key, Array(text.utf8)) }

    /// Cryptographically secure random bytes (keys, nonces, cookies).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&out, Int32(count)) == 1, "libcrypto has no randomness")
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
