import Foundation
import Synchronization

/// A progress bar on stderr, drawn only when stderr is a terminal (never in logs or pipes).
final class ProgressBar: Sendable {
    private let meter: ProgressMeter
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(meter: ProgressMeter) { self.meter = meter }

    func start() {
        guard isatty(2) != 0 else { return }
        running.store(true, ordering: .relaxed)
        let t = Thread { [self] in
            while running.load(ordering: .relaxed) {
                draw()
                Thread.sleep(forTimeInterval: 0.2)
            }
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
            done.signal()
        }
        t.start()
    }

    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        done.wait()
    }

    private func draw() {
        let (read, total) = meter.fraction
        let records = meter.records
        let width = 30
        var line = "\r"
        if total > 0 {
            let f = min(1, Double(read) / Double(total))
            let filled = Int(f * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            line += "\(Int(f * 100))%  \(read >> 20)/\(total >> 20) MiB  "
        }
        line += "\(records) records"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
