import Yams

extension PipelineSpec {
    /// This pipeline restricted to one shard: the sources whose id (`Shard.id`: the source's own
    /// `subject`, else the pipeline's or `--subject`, else the base name of its `path`, else the stage
    /// name) falls in it, and the stages still fed by something. Stages left without inputs — sinks
    /// included — go, so a shard never replaces another shard's output with an empty one.
    public func sharded(_ shard: Shard, subject: String?) throws -> (spec: PipelineSpec, kept: [String], dropped: [String]) {
        var dropped = Set<String>()
        var kept: [String] = []
        for s in stages where s.role == .source {
            let id = Shard.id(path: try scalar("path", of: s) ?? s.name, subject: try scalar("subject", of: s) ?? self.subject ?? subject)
            if shard.contains(id: id) { kept.append(s.name) } else { dropped.insert(s.name) }
        }
        // Downstream stages with no input left go too, until nothing changes (the graph is small).
        var changed = true
        while changed {
            changed = false
            for s in stages where s.role != .source && !dropped.contains(s.name) && s.inputs.allSatisfy(dropped.contains) {
                dropped.insert(s.name)
                changed = true
            }
        }
        var out = self
        out.stages = stages.filter { !dropped.contains($0.name) }.map { s in
            var s = s
            let keep = s.inputs.indices.filter { !dropped.contains(s.inputs[$0]) }
            s.inputs = keep.map { s.inputs[$0] }
            s.inputNodes = keep.map { s.inputNodes[$0] }
            return s
        }
        return (out, kept, stages.map(\.name).filter(dropped.contains))
    }

    private func scalar(_ key: String, of s: StageSpec) throws -> String? {
        guard let pair = s.node.mappingPairs?.first(where: { $0.key.scalarText == key }), let text = pair.value.scalarText else {
            return nil
        }
        return try (s.document ?? document).interpolate(text, at: pair.value)
    }
}
