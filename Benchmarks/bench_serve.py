#!/usr/bin/env python3
"""`healthpipe serve` under load (issue 25): day views of a ten-year database with wrk, while an
uploader posts Nightscout entries beside it.

Usage: python3 Benchmarks/bench_serve.py [--db bench-work/ten-years.sqlite] [--seconds 20]
       [--connections 16] [--uploads 50] [--path /day/{day}]

The database is copied first (uploads write into the copy). wrk (Debian's `wrk`) asks for `--path`
with `{day}` replaced by a random day that has readings, over `--connections` keep-alive
connections on two threads for `--seconds`; at the same time `--phones` clients POST one-reading
entries uploads, `--uploads` a second together, with the API secret, each a new reading. Reported: requests/s and
latency percentiles of the views (wrk --latency), the uploads' count, errors and p99, and whether
every upload landed. Server, wrk and the uploader share this machine's cores.
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from measure import WORK, build_healthpipe  # noqa: E402

SECRET = "benchmark secret phrase"
SHA1 = __import__("hashlib").sha1(SECRET.encode()).hexdigest()


def start_server(hp, db):
    err = tempfile.NamedTemporaryFile(mode="w+", delete=False)
    proc = subprocess.Popen([hp, "serve", "--db", db, "--port", "0"], stdout=subprocess.DEVNULL, stderr=err,
                            env=dict(os.environ, API_SECRET=SECRET))
    for _ in range(600):
        text = open(err.name).read()
        m = re.search(r"serving .* on http://127\.0\.0\.1:(\d+)/", text)
        if m:
            return proc, int(m.group(1))
        if proc.poll() is not None:
            sys.exit("serve failed: " + text)
        time.sleep(0.05)
    sys.exit("serve did not start")


def glucose_days(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    days = [r[0] for r in con.execute("SELECT DISTINCT day FROM daily_summaries WHERE metric = 'glucose' ORDER BY day")]
    last = con.execute("SELECT max(start) FROM measurements").fetchone()[0]
    con.close()
    return days, last


def lua_script(days, template):
    paths = ",".join(json.dumps(template.replace("{day}", d)) for d in days)
    return ("local paths = {" + paths + "}\n"
            "request = function()\n  return wrk.format('GET', paths[math.random(#paths)])\nend\n")


def uploader(port, per_second, seconds, first_ms, result, phone=0, phones=1):
    """One phone: POSTs one new reading per request at a steady rate (its readings interleave with
    the other phones'); records status codes and latencies."""
    url = f"http://127.0.0.1:{port}/api/v1/entries"
    latencies, failures, n = [], [], 0
    start = time.perf_counter()
    while per_second > 0 and time.perf_counter() - start < seconds:
        due = start + n / per_second
        if due - start >= seconds:
            break
        time.sleep(max(0.0, due - time.perf_counter()))
        date = first_ms + (n * phones + phone) * 300_000
        body = json.dumps([{"device": "xDrip-DexcomG6", "date": date, "dateString": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(date / 1000)),
                            "sgv": 100 + n % 80, "delta": 1.5, "direction": "Flat", "type": "sgv", "filtered": 0, "unfiltered": 0,
                            "rssi": 100, "noise": 1, "sysTime": "x"}]).encode()
        req = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json", "api-secret": SHA1})
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                r.read()
                if r.status != 200:
                    failures.append(r.status)
        except Exception as e:  # noqa: BLE001 — every failure counts
            failures.append(str(e))
        latencies.append((time.perf_counter() - t) * 1000)
        n += 1
    result.update(sent=n, failures=failures, latencies=latencies)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=os.path.join(WORK, "ten-years.sqlite"))
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--uploads", type=float, default=50, help="uploads per second, from all phones together (0: views alone)")
    ap.add_argument("--phones", type=int, default=10, help="uploaders, each sending its share one request at a time")
    ap.add_argument("--path", default="/day/{day}")
    ap.add_argument("--binary", help="a healthpipe binary (default: a release build of this tree)")
    a = ap.parse_args()
    if not os.path.exists(a.db):
        sys.exit(f"{a.db}: no such database (python3 Benchmarks/bench_ten_years.py --repeat 1 makes it)")
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk)")
    hp = a.binary or build_healthpipe()
    os.makedirs(WORK, exist_ok=True)
    copy = os.path.join(WORK, "serve-load.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    shutil.copyfile(a.db, copy)
    days, last = glucose_days(copy)
    before = sqlite3.connect(copy).execute("SELECT count(*) FROM measurements").fetchone()[0]
    proc, port = start_server(hp, copy)
    try:
        script = os.path.join(WORK, "serve-days.lua")
        with open(script, "w") as f:
            f.write(lua_script(days, a.path))
        base = f"http://127.0.0.1:{port}"
        # Warm up (page cache, first queries), then the measured run with uploads beside it.
        subprocess.run(["wrk", "-t2", "-c4", "-d3s", "-s", script, base, "-H", "api-secret: " + SHA1],
                       check=True, stdout=subprocess.DEVNULL)
        ups = [{} for _ in range(a.phones)]
        threads = [threading.Thread(target=uploader, args=(port, a.uploads / a.phones, a.seconds, (last + 86400) * 1000, ups[i], i, a.phones))
                   for i in range(a.phones)]
        for t in threads:
            t.start()
        out = subprocess.run(["wrk", "-t2", f"-c{a.connections}", f"-d{a.seconds}s", "--latency", "-s", script, base,
                              "-H", "api-secret: " + SHA1], check=True, capture_output=True, text=True).stdout
        for t in threads:
            t.join()
        up = {"sent": sum(u["sent"] for u in ups), "failures": [f for u in ups for f in u["failures"]],
              "latencies": [x for u in ups for x in u["latencies"]]}
    finally:
        proc.terminate()
        proc.wait()
    print(out)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: (.*)", out)
    after = sqlite3.connect(copy).execute("SELECT count(*) FROM measurements").fetchone()[0]
    ul = sorted(up["latencies"])
    p99 = ul[max(0, int(len(ul) * 0.99) - 1)] if ul else float("nan")
    print(f"| views | {a.connections} connections, {a.seconds} s | {rps:.0f} req/s | p50 {lat.get('50')} | p99 {lat.get('99')} "
          f"| non-2xx {errors.group(1) if errors else 0} | socket errors {socket.group(1) if socket else 'none'} |")
    print(f"| uploads | {a.phones} phones | {up['sent'] / a.seconds:.1f}/s | {up['sent']} sent | failures {len(up['failures'])} "
          f"| p50 {statistics.median(ul) if ul else float('nan'):.1f} ms | p99 {p99:.1f} ms | readings stored {after - before} |")
    if up["failures"]:
        print("upload failures:", up["failures"][:5])


if __name__ == "__main__":
    main()
