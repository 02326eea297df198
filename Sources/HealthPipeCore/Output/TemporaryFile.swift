import Foundation

/// `mkstemp` for Swift: a new file, named `prefix` + six random characters, opened for writing.
enum TemporaryFile {
    /// The descriptor and path, or the errno of the failure.
    static func create(prefix: String) -> Result<(fd: Int32, path: String), OutputError> {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(OutputError(path: prefix, reason: OSError.reason(errno))) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .success((fd, path))
    }
}
