#!/usr/bin/env python3
"""Serial burst: 200,000 IMU_Capture-style lines through a real pseudo-terminal, nothing lost.

    python3 Benchmarks/bench_serial_burst.py [--lines 200000] [--repeat 3] [--no-build]

An emulated Arduino (this script) writes the lines as fast as the pty accepts them into the
master side of a pty pair (raw mode; a blocking write waits while the reader is behind, as USB
CDC does). The reader opens the slave through a symlink, as ble-serial's /tmp/ttyBLE is:
  healthpipe stream --device LINK --exit-idle 2 --db new.sqlite --target 0 (release build): the
    whole pipeline, termios raw open, poll reads, decode, stamp at 119 Hz, session detection,
    live bar (not a tty here), SQLite;
  cat LINK > file: the transport floor (coreutils reading the same pty).
Reports lines/s over the write (first byte to last byte accepted), the lines the reader got
(from the run report: the serial-imu stage's records_out and quarantined), and healthpipe's peak
RSS. Runs the two readers interleaved.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import tty

sys.path.insert(0, os.path.dirname(__file__))
from measure import arguments  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def arduino_lines(n):
    out = ["aX,aY,aZ,gX,gY,gZ\n"]
    for i in range(n):
        t = i / 119.0
        out.append("%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n" % (
            0.2 + 0.6 * math.sin(2 * math.pi * 4 * t), 0.3 + 0.3 * math.sin(2 * math.pi * 1.3 * t),
            0.933 + 0.15 * math.cos(2 * math.pi * 4 * t), 90 * math.cos(2 * math.pi * 4 * t),
            25 * math.sin(2 * math.pi * 1.3 * t), 0.0))
    return "".join(out).encode()


def burst(reader_cmd, payload, work, stdout_path=None):
    master, slave = os.openpty()
    tty.setraw(slave)
    link = os.path.join(work, "ttyBENCH")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.ttyname(slave), link)
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    proc = subprocess.Popen([c.replace("{LINK}", link) for c in reader_cmd], stdout=out, stderr=subprocess.DEVNULL)
    time.sleep(0.3)  # let the reader open the device, as a user starts healthpipe before brushing
    start = time.perf_counter()
    view = memoryview(payload)
    while view:
        n = os.write(master, view[:65536])
        view = view[n:]
    wrote = time.perf_counter() - start
    if stdout_path:  # cat never idles out: wait until it has everything, then hang up
        while os.path.getsize(stdout_path) < len(payload) and time.perf_counter() - start < 120:
            time.sleep(0.01)
        os.close(master)
    _, status, usage = os.wait4(proc.pid, 0)
    if not stdout_path:
        os.close(master)
    os.close(slave)
    return wrote, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def main():
    ap = arguments(3, size=("--lines", 200_000, "lines in the generated stream"))
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args()
    if not a.no_build:
        subprocess.check_call(["swift", "build", "-c", "release", "--product", "healthpipe"], cwd=ROOT, stdout=subprocess.DEVNULL)
    hp = os.path.join(ROOT, ".build", "release", "healthpipe")
    payload = arduino_lines(a.lines)
    print(f"payload: {a.lines:,} lines + header, {len(payload) / 1e6:.1f} MB")
    results = {"healthpipe": [], "cat": []}
    with tempfile.TemporaryDirectory() as work:
        for r in range(a.repeat):
            db = os.path.join(work, f"b{r}.sqlite")
            report = os.path.join(work, f"r{r}.json")
            wrote, rss, code = burst([hp, "stream", "--device", "{LINK}", "--exit-idle", "2", "--db", db, "--target", "0",
                                      "--report", report, "--quiet"], payload, work)
            rep = json.load(open(report))
            imu = next(s for s in rep["stages"] if s["type"] == "serial-imu")
            got, bad = imu["records_out"], imu["quarantined"]
            results["healthpipe"].append((wrote, rss, got, bad, code))
            print(f"healthpipe run {r + 1}: {a.lines / wrote:,.0f} lines/s, read {got:,} samples, {bad} quarantined, "
                  f"lost {a.lines - got:,}, peak {rss:.0f} MiB, exit {code}")
            out = os.path.join(work, "cat.out")
            wrote, rss, code = burst(["cat", "{LINK}"], payload, work, stdout_path=out)
            size = os.path.getsize(out)
            results["cat"].append((wrote, rss, size, 0, code))
            print(f"cat        run {r + 1}: {a.lines / wrote:,.0f} lines/s, read {size:,} of {len(payload):,} bytes")
    med = lambda xs: sorted(xs)[len(xs) // 2]
    hp_rate = a.lines / med([x[0] for x in results["healthpipe"]])
    cat_rate = a.lines / med([x[0] for x in results["cat"]])
    print(f"\nmedian: healthpipe {hp_rate:,.0f} lines/s ({hp_rate / 119:,.0f}× the 119 Hz stream), "
          f"cat {cat_rate:,.0f} lines/s; healthpipe ÷ cat = {hp_rate / cat_rate:.2f}; "
          f"peak RSS {med([x[1] for x in results['healthpipe']]):.0f} MiB")
    lost = [a.lines - x[2] for x in results["healthpipe"]]
    if any(lost) or any(x[3] for x in results["healthpipe"]):
        print(f"LOST LINES: {lost}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
