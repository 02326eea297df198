#!/usr/bin/env python3
"""Nightscout mongoexport → SQLite against the Clarity CSV import, side by side in one run.

Usage: python3 Benchmarks/bench_nightscout_import.py [--docs 1000000] [--repeat 3] [--flat 100000,1000000,3000000]

Generates a mongoexport file of Nightscout entries (one extended-JSON document per line, as
`mongoexport --collection entries` writes: `{"$oid"}` ids, dates as `{"$date": {"$numberLong"}}`,
`{"$numberLong"}` or plain numbers, a few sgv as strings; ~300 bytes a document) and a Clarity CSV
with the same number of rows (../shared/tools/gen_cgm_csv.py), both cached in bench-work/. Times
`healthpipe import` (release build, the full default pipeline) on each, interleaved, and prints the
median wall seconds, peak RSS and the ratio (goal: mongoexport ≤ 1.5× Clarity). `--flat` also imports
mongoexport files of several sizes once each to show that peak memory does not grow with the input.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from measure import WORK, arguments, build_healthpipe, clarity_csv, fresh, measure  # noqa: E402


def mongoexport(path, docs):
    base_ms = 1_577_836_800_000  # 2020-01-01T00:00:00Z
    directions = ["Flat", "FortyFiveUp", "SingleUp", "FortyFiveDown", "SingleDown"]
    with open(path + ".tmp", "w") as f:
        for i in range(docs):
            ms = base_ms + i * 300_000 + (i * 7919) % 1000
            sgv = 40 + (i * 37) % 300
            if i % 3 == 0:
                date = {"$date": {"$numberLong": str(ms)}}
            elif i % 3 == 1:
                date = {"$numberLong": str(ms)}
            else:
                date = ms
            secs, milli = divmod(ms, 1000)
            iso = f"{__import__('time').strftime('%Y-%m-%dT%H:%M:%S', __import__('time').gmtime(secs))}.{milli:03d}Z"
            doc = {"_id": {"$oid": f"5e0bd2{i:018x}"}, "sgv": sgv if i % 50 else str(sgv), "date": date, "dateString": iso,
                   "trend": 4, "direction": directions[i % 5], "device": "share2", "type": "sgv", "utcOffset": 60,
                   "sysTime": iso}
            f.write(json.dumps(doc, separators=(",", ":")) + "\n")
    os.replace(path + ".tmp", path)


def main():
    ap = arguments(3, size=("--docs", 1_000_000, "documents in the generated dump"))
    ap.add_argument("--flat", default="", help="comma-separated document counts for the flat-memory check")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)

    def ns_file(n):
        p = os.path.join(WORK, f"nightscout-mongo-{n}.json")
        if not os.path.exists(p):
            mongoexport(p, n)
        return p

    ns = ns_file(a.docs)
    clarity = clarity_csv(os.path.join(WORK, f"clarity-{a.docs}.csv"), a.docs)
    hp = build_healthpipe()
    db = os.path.join(WORK, "bench-ns.sqlite")
    jobs = {
        "healthpipe import nightscout mongoexport": [hp, "import", ns, "--db", db, "--timezone", "UTC"],
        "healthpipe import Clarity CSV": [hp, "import", clarity, "--db", db, "--timezone", "UTC"],
    }
    results = {name: [] for name in jobs}
    for _ in range(a.repeat):
        for name, cmd in jobs.items():  # interleaved: load on the machine hits both alike
            fresh(db)
            results[name].append(measure(cmd))
    print(f"\n{a.docs:,} documents / rows; mongoexport {os.path.getsize(ns) / 1e6:.0f} MB, Clarity CSV "
          f"{os.path.getsize(clarity) / 1e6:.0f} MB; median of {a.repeat} runs\n")
    print("| job | wall s (median) | runs | peak RSS MiB |")
    print("|---|---|---|---|")
    med = {}
    for name, runs in results.items():
        med[name] = statistics.median(w for w, _, _ in runs)
        print(f"| {name} | {med[name]:.2f} | {', '.join(f'{w:.2f}' for w, _, _ in runs)} | {max(r for _, r, _ in runs):.0f} |")
    ratio = med["healthpipe import nightscout mongoexport"] / med["healthpipe import Clarity CSV"]
    print(f"\nmongoexport ÷ Clarity CSV: {ratio:.2f} (goal ≤ 1.5)")
    pairs = [n / c for (n, _, _), (c, _, _) in zip(results["healthpipe import nightscout mongoexport"], results["healthpipe import Clarity CSV"])]
    print("per pair: " + ", ".join(f"{p:.2f}" for p in pairs))

    if a.flat:
        print("\n| mongoexport documents | MB | wall s | peak RSS MiB |")
        print("|---|---|---|---|")
        for n in [int(x) for x in a.flat.split(",")]:
            p = ns_file(n)
            fresh(db)
            w, rss, _ = measure([hp, "import", p, "--db", db, "--timezone", "UTC"])
            print(f"| {n:,} | {os.path.getsize(p) / 1e6:.0f} | {w:.2f} | {rss:.0f} |")
    fresh(db)


if __name__ == "__main__":
    main()
