import Foundation
import HealthPipeCore

extension ChartSink {
    /// The folder must be one HealthPipe can create files in (each file is then checked as written).
    public func checkOutputs() throws {
        var st = stat()
        if stat(folder, &st) == 0, st.st_mode & S_IFMT != S_IFDIR {
            throw OutputError(path: folder, reason: "cannot write the chart folder: it is a file, not a folder")
        }
        _ = try OutputPath.check(folder + "/.healthpipe-chart-check", what: "chart folder")
    }

    public var fileRoles: [FileRole] { [FileRole(.output, folder, what: "chart folder")] }
}
