/// One file or folder of a zip, as its central directory describes it.
public struct ZipEntry: Sendable, Equatable {
    /// The name inside the zip, `/`-separated (UTF-8 when flagged or valid, else read as Latin-1).
    public let path: String
    public let isDirectory: Bool
    /// 0 stored, 8 deflated; others are refused when read.
    public let method: UInt16
    /// General-purpose flags (bit 0: encrypted).
    public let flags: UInt16
    public let crc32: UInt32
    public let compressedSize: UInt64
    public let uncompressedSize: UInt64
    let localHeaderOffset: UInt64

    public var isFile: Bool { !isDirectory }
    /// The last path component.
    public var name: Substring { path.split(separator: "/").last ?? Substring(path) }
}
