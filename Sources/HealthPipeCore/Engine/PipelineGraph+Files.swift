import Foundation

extension PipelineGraph {
    /// Every file the pipeline touches: each source's inputs, each sink's outputs and stores, and the
    /// quarantine file when a stage quarantines (`reportPath`: the command's `--report`).
    public func fileRoles(reportPath: String? = nil) -> [FileRole] {
        var roles: [FileRole] = []
        for n in nodes {
            if let s = n.stage as? FileRoleDescribing {
                roles += s.fileRoles.map { FileRole($0.use, $0.path, what: "\($0.what) of \(n.name)") }
            } else if let s = n.stage as? InputDescribing {
                roles += s.inputPaths.map { FileRole(.input, $0, what: "input of \(n.name)") }
            }
        }
        if nodes.contains(where: { $0.policy == .quarantine }) { roles.append(FileRole(.output, quarantinePath, what: "quarantine file")) }
        if let reportPath { roles.append(FileRole(.output, reportPath, what: "report")) }
        return roles
    }

    /// `FileRoles.clash` over `fileRoles`: nil, or the two roles that name one file.
    public func fileClash(reportPath: String? = nil) -> String? {
        FileRoles.clash(fileRoles(reportPath: reportPath))
    }
}
