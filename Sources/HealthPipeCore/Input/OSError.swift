#if canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#elseif canImport(Darwin)
import Darwin
#endif

/// The operating system's reason for a failed call, as the user should read it.
public enum OSError {
    /// `strerror(code)` with a hint for the cases people meet most (a symlink loop, a full disk).
    public static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        switch code {
        case ELOOP: return text + " (a symbolic link loop?)"
        case ENOSPC: return text + " (the disk is full)"
        case EROFS: return text + " (a read-only file system)"
        default: return text
        }
    }
}
