import CSerialPort
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthPipeCore

/// Draws the live accomplishment bar (the seed's filling meter) on the terminal from session
/// progress records, and prints one line per finished session. Without a terminal it prints only
/// the session lines, so logs stay readable.
public final class SessionBarSink: Sink {
    let fd: Int32
    let width: Int
    private let terminal: Bool
    private var lastDraw: Int64 = 0
    private var barShown = false
    public private(set) var sessionsShown = 0

    public init(fd: Int32 = 2, width: Int = 30) {
        self.fd = fd
        self.width = width
        self.terminal = isatty(fd) != 0
    }

    public func open(run: RunInfo, context: StageContext) throws {}

    public func write(_ batch: RecordBatch, context: StageContext) throws {
        if terminal, let p = batch.sessionProgress.last {
            let now = monotonicMilliseconds()
            if now - lastDraw >= 80 || p.accomplishment >= 100 {
                out("\r" + Self.bar(p, width: width) + "\u{1B}[K")
                barShown = true
                lastDraw = now
            }
        }
        for s in batch.motionSessions {
            if barShown { out("\r\u{1B}[K") }
            barShown = false
            out(Self.line(s) + "\n")
            sessionsShown += 1
        }
    }

    public func close(outcome: RunOutcome, report: RunReport, context: StageContext) throws {
        if barShown { out("\n") }
    }

    /// `[██████████··········]  50%  0:37/2:00  active 30s`
    public static func bar(_ p: SessionProgress, width: Int) -> String {
        let filled = min(width, Int((p.accomplishment / 100 * Double(width)).rounded(.down)))
        let target = p.targetSeconds > 0 ? "/" + clock(p.targetSeconds) : ""
        return "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + "] "
            + pad(Int(p.accomplishment.rounded(.down)), 3) + "%  " + clock(p.elapsedSeconds) + target
            + "  active " + String(Int(p.activeSeconds)) + "s"
    }

    /// `session 2026-01-05 07:30:00  2:00  avg 0.412 g  100%  (target)`
    public static func line(_ s: MotionSession) -> String {
        let local = s.start / 1000 + Int64(s.utcOffset)
        return "session " + CivilDate.isoDateTime(seconds: local).replacingOccurrences(of: "T", with: " ")
            + "  " + clock(s.durationSeconds) + "  avg " + fixed(s.average, 3) + " g  "
            + String(Int(s.accomplishment.rounded(.down))) + "%  active " + String(Int(s.activeSeconds)) + "s  (" + s.endReason.rawValue + ")"
    }

    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds))
        return String(s / 60) + ":" + pad(s % 60, 2, "0")
    }

    static func pad(_ v: Int, _ w: Int, _ c: Character = " ") -> String {
        let s = String(v)
        return s.count >= w ? s : String(repeating: c, count: w - s.count) + s
    }

    static func fixed(_ v: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int64((v * scale).rounded())
        let whole = n / Int64(scale), frac = abs(n % Int64(scale))
        return (n < 0 && whole == 0 ? "-" : "") + String(whole) + "." + pad(Int(frac), digits, "0")
    }

    private func out(_ text: String) {
        var t = text
        t.withUTF8 { _ = hp_write_all(fd, $0.baseAddress, $0.count) }
    }
}



public let sessionBarComponent = ComponentDescriptor(
    name: "session-bar", role: .sink, family: "SerialIMU",
    summary: """
        Terminal view of motion sessions: the live accomplishment bar while a session runs, one line per finished \
        session (start, duration, average movement, accomplishment, end reason).
        """,
    options: [OptionDoc("stream", "stderr | stdout", default: "stderr", "where to draw")],
    accepts: [.sessionProgress, .motionSessions],
    build: { b in
        switch try b.value("stream") ?? "stderr" {
        case "stderr": return SessionBarSink(fd: 2)
        case "stdout": return SessionBarSink(fd: 1)
        case let s: throw b.error("stream is stderr or stdout (got '\(s)')", option: "stream")
        }
    })
