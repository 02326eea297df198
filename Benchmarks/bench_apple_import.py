#!/usr/bin/env python3
"""Apple Health export → SQLite, side by side in one run (this machine is shared and noisy: compare ratios).

Usage: python3 Benchmarks/bench_apple_import.py [--records 1000000] [--repeat 3] [--slow-once] [--no-peers]

Generates export.xml with ../shared/tools/gen_apple_health.py (cached in bench-work/) and zips it as the
Health app does (apple_health_export/export.xml, deflate), builds the C reference programs with
../shared/tools/floors/build.sh, and times, each on a new database:
  healthpipe import export.xml (release build, upsert keys, metadata JSON, classify + daily summary),
  healthpipe import export.zip (the same, read straight from the zip),
  xml_to_sqlite threads unique (C reference: libxml2 SAX + one INSERT ... ON CONFLICT DO NOTHING),
  healthkit-to-sqlite on the zip if installed (pip install healthkit-to-sqlite; --slow-once runs it once).
Prints a Markdown table of median wall seconds, peak RSS and ratios.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
from measure import SHARED, WORK, build_floors, build_healthpipe, fresh, measure  # noqa: E402




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--slow-once", action="store_true", help="run healthkit-to-sqlite (minutes) in the first round only")
    ap.add_argument("--no-peers", action="store_true", help="skip healthkit-to-sqlite")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    xml = os.path.join(WORK, f"apple-{a.records}.xml")
    if not os.path.exists(xml):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_apple_health.py"), "-n", str(a.records), "-o", xml])
    zpath = os.path.join(WORK, f"apple-{a.records}.zip")
    if not os.path.exists(zpath):
        with zipfile.ZipFile(zpath + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
            z.write(xml, "apple_health_export/export.xml")
        os.rename(zpath + ".tmp", zpath)
    floors = build_floors()
    hp = build_healthpipe()
    db = os.path.join(WORK, "bench.sqlite")

    ref_name = "C xml_to_sqlite threads unique"
    jobs = {
        "healthpipe import export.xml": lambda: [hp, "import", xml, "--db", db],
        "healthpipe import export.zip": lambda: [hp, "import", zpath, "--db", db],
        ref_name: lambda: [os.path.join(floors, "xml_to_sqlite"), "threads", "unique", xml, db],
    }
    if shutil.which("healthkit-to-sqlite") and not a.no_peers:
        jobs["healthkit-to-sqlite export.zip"] = lambda: ["healthkit-to-sqlite", zpath, db]

    results = {name: [] for name in jobs}
    for round_ in range(a.repeat):
        for name, cmd in jobs.items():  # interleaved, so load on the machine hits all alike
            if a.slow_once and round_ > 0 and name.startswith("healthkit-to-sqlite"):
                continue
            fresh(db)
            results[name].append(measure(cmd()))
    size = os.path.getsize(xml) / 1e6
    zsize = os.path.getsize(zpath) / 1e6
    ref = statistics.median(w for w, _, _ in results[ref_name])
    xml_wall = statistics.median(w for w, _, _ in results["healthpipe import export.xml"])
    print(f"\nApple Health export, {a.records:,} top-level records, {size:.0f} MB XML ({zsize:.0f} MB zipped); "
          f"median of {a.repeat} runs\n")
    print("| job | wall s (median) | peak RSS MiB | ÷ C reference | ÷ healthpipe on the XML |")
    print("|---|---|---|---|---|")
    for name, runs in results.items():
        wall = statistics.median(w for w, _, _ in runs)
        rss = max(r for _, r, _ in runs)
        print(f"| {name} | {wall:.2f} | {rss:.0f} | {wall / ref:.2f} | {wall / xml_wall:.2f} |")


if __name__ == "__main__":
    main()
