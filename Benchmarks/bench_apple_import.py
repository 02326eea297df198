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
import os
import shutil
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(__file__))
from measure import SHARED, WORK, arguments, build_floors, build_healthpipe, fresh, interleave, ratio_table  # noqa: E402




def main():
    ap = arguments(3, size=("--records", 1_000_000, "records in the generated export"))
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

    results = interleave(jobs, a.repeat, before=lambda: fresh(db),
                         skip=lambda round_, name: a.slow_once and round_ > 0 and name.startswith("healthkit-to-sqlite"))
    size = os.path.getsize(xml) / 1e6
    zsize = os.path.getsize(zpath) / 1e6
    print(f"\nApple Health export, {a.records:,} top-level records, {size:.0f} MB XML ({zsize:.0f} MB zipped); "
          f"median of {a.repeat} runs\n")
    ratio_table(results, ref_name, "healthpipe on the XML", "healthpipe import export.xml")


if __name__ == "__main__":
    main()
