#!/usr/bin/env python3
"""Hostile shapes: bounded memory and time, side by side with well-formed input in one run.

Usage: python3 Benchmarks/bench_hostile.py [--baseline PATH] [--repeat 1] [--only NAME ...]

Each hostile job is paired with a reference job of the same size and shape without the hostility
(same build, run interleaved), so the ratio says what the attack costs. With --baseline (a build
without the hostile-input fixes, e.g. main's .build/release/healthpipe copied aside) the
well-formed imports are also timed on it, to show the fixes cost nothing on normal files.
Inputs are generated into bench-work/ (and cached); the Clarity and Apple files come from
../shared/tools (as in bench_clarity_import.py and bench_apple_import.py).
"""
import os
import signal
import statistics
import subprocess
import sys
import time
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
from measure import SHARED, WORK, arguments, build_healthpipe, fresh, measure  # noqa: E402

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2024-03-02 10:00:00 +0000"/>\n'


def record(i, source="Watch"):
    t = 1_700_000_000 + i * 60
    stamp = time.strftime("%Y-%m-%d %H:%M:%S +0000", time.gmtime(t))
    return (f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="{source}" unit="count/min" '
            f'startDate="{stamp}" endDate="{stamp}" value="{60 + i % 80}"/>\n')


def write_xml(path, n, bad_every=0, attribute_mb=0):
    """n heart-rate records; every bad_every-th has a raw '&'; one record carries an attribute of attribute_mb MB."""
    with open(path, "w") as f:
        f.write(HEAD)
        for i in range(n):
            if attribute_mb and i == n // 2:
                f.write(record(i).replace('/>', '>') + '  <MetadataEntry key="note" value="')
                for _ in range(attribute_mb):
                    f.write("n" * (1 << 20))
                f.write('"/>\n </Record>\n')
            else:
                f.write(record(i, "W & W" if bad_every and i % bad_every == 0 else "Watch"))
        f.write("</HealthData>\n")


def write_deep_zip(path, levels, records=5):
    """A small zip of one export whose middle element is nested `levels` deep (the issue's bomb shape)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("apple_health_export/export.xml", "w", force_zip64=True) as f:
            f.write(HEAD.encode())
            for i in range(records):
                f.write(record(i).encode())
            f.write(record(records).replace("/>", ">").encode())
            block = 1 << 20
            for tag in (b"<a>", b"</a>"):
                left = levels
                while left:
                    k = min(left, block)
                    f.write(tag * k)
                    left -= k
            f.write(b"\n </Record>\n")
            for i in range(records + 1, 2 * records + 1):
                f.write(record(i).encode())
            f.write(b"</HealthData>\n")


def write_normal_zip(path, xml_path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(xml_path, "apple_health_export/export.xml")


def clarity_variant(src, dst, edit):
    with open(src, "rb") as f, open(dst, "wb") as out:
        for n, line in enumerate(f):
            out.write(edit(n, line))


def dev_zero_job(hp, db, seconds):
    """healthpipe reading /dev/zero (a forced format, no line break ever) for `seconds`, then SIGTERM."""
    def run():
        start = time.perf_counter()
        proc = subprocess.Popen([hp, "import", "/dev/zero", "--format", "dexcom-clarity", "--db", db, "--timezone", "UTC"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(seconds)
        proc.send_signal(signal.SIGTERM)
        signalled = time.perf_counter()
        _, status, usage = os.wait4(proc.pid, 0)
        end = time.perf_counter()
        return end - start, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), end - signalled
    return run


def main():
    ap = arguments(1, baseline="without the hostile-input fixes")
    ap.add_argument("--only", nargs="*", help="run only jobs whose name contains one of these words")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    hp = build_healthpipe()
    db = os.path.join(WORK, "hostile.sqlite")
    w = lambda name: os.path.join(WORK, name)  # noqa: E731

    clarity = w("clarity-3000000.csv")
    if not os.path.exists(clarity):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_cgm_csv.py"), "-n", "3000000", "-o", clarity])
    apple = w("apple-1000000.xml")
    if not os.path.exists(apple):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_apple_health.py"), "-n", "1000000", "-o", apple])
    inputs = {
        "quote.csv": lambda p: clarity_variant(clarity, p, lambda n, l: l.rstrip(b"\r\n") + b',"\r\n' if n == 20 else l),
        "cells.csv": lambda p: clarity_variant(clarity, p, lambda n, l: (b"x" * (10 << 20) + b"\r\n" + l) if n % 150000 == 5 else l),
        "good-100k.xml": lambda p: write_xml(p, 100_000),
        "bad-100k.xml": lambda p: write_xml(p, 100_000, bad_every=1),
        "attr-15mb.xml": lambda p: write_xml(p, 100_000, attribute_mb=15),
        "attr-200mb.xml": lambda p: write_xml(p, 100_000, attribute_mb=200),
        "deep.zip": lambda p: write_deep_zip(p, 115_000_000),
        "flat.xml": lambda p: write_xml(p, 1_600_000),
        "flat.zip": lambda p: write_normal_zip(p, w("flat.xml")),
    }
    for name, make in inputs.items():
        if not os.path.exists(w(name)):
            make(w(name))

    def imp(binary, path, *extra):
        return lambda: measure([binary, "import", path, "--db", db, "--timezone", "UTC", *extra])

    # (job, reference job): the ratio is job ÷ reference.
    pairs = [
        ("Clarity 3M rows", imp(hp, clarity), None),
        ("Clarity 3M rows, stray quote on line 21", imp(hp, w("quote.csv")), "Clarity 3M rows"),
        ("Clarity 3M rows + 20 lines of 10 MB", imp(hp, w("cells.csv")), "Clarity 3M rows"),
        ("Apple 1M records (423 MB)", imp(hp, apple), None),
        ("Apple 100k good records", imp(hp, w("good-100k.xml")), None),
        ("Apple 100k records, every one malformed (raw &)", imp(hp, w("bad-100k.xml")), "Apple 100k good records"),
        ("Apple 100k records + one 15 MB attribute (read)", imp(hp, w("attr-15mb.xml")), "Apple 100k good records"),
        ("Apple 100k records + one 200 MB element (refused)", imp(hp, w("attr-200mb.xml")), "Apple 100k good records"),
        ("Apple zip, 1.6M records (flat)", imp(hp, w("flat.zip")), None),
        ("Apple zip, 115M nested elements", imp(hp, w("deep.zip")), "Apple zip, 1.6M records (flat)"),
        ("/dev/zero, forced format, SIGTERM after 5 s", dev_zero_job(hp, db, 5), None),
    ]
    if a.baseline:
        pairs += [
            ("baseline: Clarity 3M rows", imp(a.baseline, clarity), "Clarity 3M rows"),
            ("baseline: Apple 1M records (423 MB)", imp(a.baseline, apple), "Apple 1M records (423 MB)"),
        ]
    if a.only:
        keep = {n for n, _, _ in pairs if any(word in n for word in a.only)}
        keep |= {r for n, _, r in pairs if n in keep and r}
        pairs = [p for p in pairs if p[0] in keep]
    results = {name: [] for name, _, _ in pairs}
    for _ in range(a.repeat):
        for name, job, _ in pairs:  # interleaved, so the machine's load hits every job alike
            fresh(db)
            results[name].append(job())
    print(f"\nHostile shapes, median of {a.repeat} run(s)\n")
    print("| job | wall s | peak RSS MiB | exit | ÷ reference (wall) | ÷ reference (RSS) |")
    print("|---|---|---|---|---|---|")
    for name, _, ref in pairs:
        runs = results[name]
        wall = statistics.median(r[0] for r in runs)
        rss = max(r[1] for r in runs)
        codes = ",".join(sorted({str(r[2]) for r in runs}))
        extra = f" (stopped {max(r[3] for r in runs):.2f} s after SIGTERM)" if len(runs[0]) > 3 else ""
        if ref:
            rw = statistics.median(r[0] for r in results[ref])
            rr = max(r[1] for r in results[ref])
            print(f"| {name}{extra} | {wall:.2f} | {rss:.0f} | {codes} | {wall / rw:.2f} | {rss / rr:.2f} |")
        else:
            print(f"| {name}{extra} | {wall:.2f} | {rss:.0f} | {codes} | — | — |")


if __name__ == "__main__":
    main()
