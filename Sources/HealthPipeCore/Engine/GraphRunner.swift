import Foundation
import Synchronization

/// Sources that read files say which. The one path of an input's identity: the engine registers
/// each declared path in the source's context before any sink opens (so a database logs the import
/// as running before data arrives), the source fills in what it learns by the same path (format,
/// size, hash, counts: `StageContext.registerInput`), and the run report carries it to the sinks;
/// records name the same path in their provenance.
public protocol InputDescribing {
    var inputPaths: [String] { get }
}

/// Sinks that write files check them (`OutputPath.check`) before the run opens anything, and name
/// them (`fileRoles`) so `FileRoles.clash` can refuse an output that is another stage's file.
public protocol OutputChecking: FileRoleDescribing {
    func checkOutputs() throws
}

/// Runs a built graph: one thread per stage, bounded queues between them, so parsing,
/// transforming and writing overlap. Collects the run report and decides the outcome.
public struct GraphRunner {
    public var queueCapacity = 4
    /// Sources that read at the same time; the others wait their turn (see `run`). Eight keep two
    /// cores busy with fewer threads, buffers and malloc arenas alive than 32 (20,000 files: about
    /// 132 MB alone, up to about 400 MB while a whole test suite saturates the machine).
    public static let maxRunningSources = 8
    public var showProgress: Bool

    public init(showProgress: Bool = false) { self.showProgress = showProgress }

    /// Every output, the dead-letter file included, checked before any sink opens or any source
    /// reads (and before a command touches a database): a wrong path costs nothing and touches
    /// nothing. Nil when all can be written, else what is wrong, naming the stage.
    public static func outputProblem(of graph: PipelineGraph) -> String? {
        for n in graph.nodes {
            guard let out = n.stage as? OutputChecking else { continue }
            do { try out.checkOutputs() } catch { return "\(n.name): \(error)" }
        }
        if graph.nodes.contains(where: { $0.policy == .quarantine }) {
            do { try QuarantineWriter(path: graph.quarantinePath).prepare() } catch { return "quarantine: \(error)" }
        }
        return nil
    }

    public func run(_ graph: PipelineGraph) -> RunReport {
        let clock = ContinuousClock.now
        let quarantine = QuarantineWriter(path: graph.quarantinePath)
        let progress = ProgressMeter()
        let nodes = graph.nodes
        let contexts = nodes.map {
            StageContext(name: $0.name, type: $0.descriptor.name, policy: $0.policy, quarantine: quarantine, progress: progress)
        }
        var queues: [BatchQueue?] = nodes.map { $0.inputs.isEmpty ? nil : BatchQueue(capacity: queueCapacity, producers: $0.inputs.count) }
        var downstream: [[BatchQueue]] = Array(repeating: [], count: nodes.count)
        for (i, n) in nodes.enumerated() { for up in n.inputs { downstream[up].append(queues[i]!) } }
        let allQueues = queues.compactMap { $0 }
        let failure = FailureLatch(queues: allQueues)
        let fail = failure.fail

        for (i, n) in nodes.enumerated() {
            for path in (n.stage as? InputDescribing)?.inputPaths ?? [] {
                contexts[i].registerInput(InputFileInfo(path: path, format: n.descriptor.name, size: 0))
            }
        }
        let runInfo = RunInfo(id: UUID().uuidString, startedAt: Int64(Date().timeIntervalSince1970),
                              inputPaths: contexts.flatMap { $0.inputs.map(\.path) })
        if let problem = Self.outputProblem(of: graph) { fail(problem) }
        for (i, n) in nodes.enumerated() where failure.message == nil {
            guard let sink = n.stage as? any Sink else { continue }
            do { try sink.open(run: runInfo, context: contexts[i]) } catch { fail("\(n.name): \(error)") }
        }

        let group = DispatchGroup()
        // Sources beyond `maxRunningSources` wait for a slot, in order: 20,000 input files are 20,000
        // source stages, and run all at once they held 20,000 threads, open files and read buffers.
        let slots = DispatchSemaphore(value: Self.maxRunningSources)
        var waiting: [StageJob] = []
        if failure.message == nil {
            for (i, n) in nodes.enumerated() {
                let job = StageJob(stage: n.stage, context: contexts[i], input: queues[i], outputs: downstream[i])
                let isSource = n.stage is any Source
                group.enter()
                let thread = Thread {
                    defer { if isSource { slots.signal() } }
                    let started = ContinuousClock.now
                    do { try job.execute() } catch is Cancelled {
                    } catch is ReadInterrupted {  // a stop request reached a read: the run is interrupted, not failed
                    } catch let e as InputError where job.stage is any Source {
                        // One unreadable input ends only its own source: the other files still land.
                        failure.record("\(job.context.name): \(e)")
                    } catch { fail("\(job.context.name): \(error)") }
                    job.context.seconds = (ContinuousClock.now - started).seconds
                    for q in job.outputs { q.producerFinished() }
                    group.leave()
                }
                thread.name = "stage \(n.name)"
                thread.stackSize = 4 << 20
                if isSource {
                    job.thread = thread
                    waiting.append(job)
                } else { thread.start() }
            }
        }
        let launcher = Thread { [waiting] in
            for job in waiting {
                slots.wait()
                // A failed or stopped run starts no more sources; theirs end as if read.
                if failure.aborted || StopRequest.isRequested {
                    for q in job.outputs { q.producerFinished() }
                    job.thread = nil
                    slots.signal()
                    group.leave()
                    continue
                }
                job.thread?.start()
                job.thread = nil
            }
        }
        launcher.start()
        let bar = showProgress ? ProgressBar(meter: progress) : nil
        bar?.start()
        group.wait()
        bar?.stop()
        queues.removeAll()

        var report = RunReport()
        report.quarantinePath = graph.quarantinePath
        report.error = failure.message
        report.outcome = report.error != nil ? .failed : (StopRequest.isRequested ? .interrupted : .completed)
        for (i, n) in nodes.enumerated() {
            let c = contexts[i]
            report.inputs.append(contentsOf: c.inputsAfterGate)
            // A source that accounted for its rows reports them as its `in`, the skipped ones with `bad`.
            let rows = c.accountedRows
            report.stages.append(.init(name: n.name, type: n.descriptor.name, role: n.descriptor.role, recordsIn: rows?.read ?? c.recordsIn,
                                       recordsOut: c.recordsOut, quarantined: c.quarantined, skipped: c.skipped + (rows?.skipped ?? 0),
                                       seconds: c.seconds, warnings: c.warnings, sampleErrors: c.sampleErrors))
        }
        // Sinks commit last, whatever happened upstream, so the store stays consistent.
        for (i, n) in nodes.enumerated() {
            guard let sink = n.stage as? any Sink else { continue }
            do { try sink.close(outcome: report.outcome, report: report, context: contexts[i]) } catch {
                report.outcome = .failed
                report.error = (report.error.map { $0 + "; " } ?? "") + "\(n.name): \(error)"
            }
        }
        quarantine.close()
        report.seconds = (ContinuousClock.now - clock).seconds
        return report
    }
}

struct Cancelled: Error {}

/// The first failure of a run; recording it aborts every queue so all stages wind down.
private final class FailureLatch: Sendable {
    private let first = Mutex<String?>(nil)
    private let queues: [BatchQueue]
    init(queues: [BatchQueue]) { self.queues = queues }

    private let abortedFlag = Atomic<Bool>(false)
    @Sendable func fail(_ message: String) {
        record(message)
        abortedFlag.store(true, ordering: .releasing)
        for q in queues { q.abort() }
    }
    /// True once `fail` aborted the queues (a recorded failure alone lets the other stages go on).
    var aborted: Bool { abortedFlag.load(ordering: .acquiring) }

    /// Records a failure without stopping the other stages.
    @Sendable func record(_ message: String) {
        first.withLock { $0 = $0.map { $0 + "; " + message } ?? message }
    }
    var message: String? { first.withLock { $0 } }
}

/// One stage's loop, moved onto its thread.
private final class StageJob: @unchecked Sendable {
    let stage: any Stage
    let context: StageContext
    let input: BatchQueue?
    let outputs: [BatchQueue]
    /// A source's thread until the launcher starts it.
    var thread: Thread?

    init(stage: any Stage, context: StageContext, input: BatchQueue?, outputs: [BatchQueue]) {
        self.stage = stage
        self.context = context
        self.input = input
        self.outputs = outputs
    }

    func emit(_ batch: RecordBatch) throws {
        guard !batch.isEmpty else { return }
        context.recordsOut += Int64(batch.count)
        for q in outputs where !q.push(batch) { throw Cancelled() }
    }

    func execute() throws {
        switch stage {
        case let source as any Source:
            try source.run(context: context) { batch in
                var batch = batch
                try RecordGate.admit(&batch, context: context)
                context.progress.addRecords(Int64(batch.count))
                try emit(batch)
            }
        case let transform as any Transform:
            while let b = input?.pop() {
                context.recordsIn += Int64(b.count)
                try transform.process(b, context: context, emit: emit)
            }
            try transform.finish(context: context, emit: emit)
        case let sink as any Sink:
            while let b = input?.pop() {
                context.recordsIn += Int64(b.count)
                try sink.write(b, context: context)
            }
        default:
            throw RegistryError(message: "stage \(context.name) is neither source, transform nor sink")
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
