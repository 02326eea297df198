#!/usr/bin/env python3
"""Ten years of one person's data (issue 24), side by side with the C floors in one run.

Usage: python3 Benchmarks/bench_ten_years.py [--repeat 5] [--apple 10000000] [--cgm 1000000] [--baseline OTHER]

The person: an Apple Health export of `--apple` records (Watch, CGM, Loop insulin, meals, workouts;
10M records span about nine and a half years) and a Dexcom Clarity export of `--cgm` 5-minute readings
with meals and insulin over the same years, both from ../shared/tools. Every round, interleaved:

- healthpipe: both files into a new SQLite database with every derived row (`import`), then the
  patient's page for the last 14 days (`page`) — wall, CPU and peak memory of each and together;
- the C floors for the same inputs: `xml_to_sqlite threads unique` on the export and
  `csv_to_sqlite threads unique` on the CSV, one after the other (no derived rows, no page).

Then one more week: the CGM file is cut at its last week; the years before it make the database, and
the week goes into a copy of it, against the same week into an empty database (parsing, writing and
summarising the week alone): the difference is what the stored years cost the week.
"""
import os
import shutil
import statistics
import subprocess
import sys
from datetime import datetime, timedelta

sys.path.insert(0, os.path.dirname(__file__))
from bench_incremental import cut, last_timestamp  # noqa: E402
from measure import SHARED, WORK, arguments, build_floors, build_healthpipe, fresh, measure  # noqa: E402

ZONE = "America/Los_Angeles"   # the generators' zone
START = "2023-01-01T00:02:47"  # the Apple generator's first day; the CGM export starts with it


def run(cmd):
    """(wall s, CPU s, peak RSS MiB) of one command (`measure`), which must succeed."""
    r = measure(cmd)
    if r[2] != 0:
        sys.exit(f"failed ({r[2]}): {' '.join(cmd)}")
    return r[0], r.cpu, r[1]


def inputs(apple, cgm):
    xml = os.path.join(WORK, f"ten-years-apple-{apple}.xml")
    if not os.path.exists(xml):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_apple_health.py"), "-n", str(apple),
                               "-o", xml + ".tmp"])
        os.rename(xml + ".tmp", xml)
    csv = os.path.join(WORK, f"ten-years-cgm-{cgm}.csv")
    if not os.path.exists(csv):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_cgm_csv.py"), "-n", str(cgm),
                               "--start", START, "-o", csv + ".tmp"])
        os.rename(csv + ".tmp", csv)
    return xml, csv


def healthpipe_job(hp, xml, csv, db, page):
    """Import both files into a new database, then write the page: the import, the page, together."""
    fresh(db)
    imported = run([hp, "import", xml, csv, "--db", db, "--timezone", ZONE, "--quiet"])
    paged = run([hp, "page", "--db", db, "--output", page])
    return imported, paged


def floors_job(floors, xml, csv, db_xml, db_csv):
    fresh(db_xml)
    fresh(db_csv)
    a = run([os.path.join(floors, "xml_to_sqlite"), "threads", "unique", xml, db_xml])
    b = run([os.path.join(floors, "csv_to_sqlite"), "threads", "unique", csv, db_csv])
    return a, b


def together(*runs):
    return sum(r[0] for r in runs), sum(r[1] for r in runs), max(r[2] for r in runs)


def row(name, runs, ref=None):
    """A table row: medians of wall and CPU, the peak, and both ÷ `ref` (wall, CPU); and the medians."""
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    rss = max(r[2] for r in runs)
    ref = ref or (wall, cpu)
    return f"| {name} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {wall / ref[0]:.2f} | {cpu / ref[1]:.2f} |", (wall, cpu)


def main():
    ap = arguments(5, baseline="whose import and page run in the same rounds")
    ap.add_argument("--apple", type=int, default=10_000_000, help="Apple export records")
    ap.add_argument("--cgm", type=int, default=1_000_000, help="Clarity readings")
    ap.add_argument("--binary", help="a release healthpipe (default: build one)")
    ap.add_argument("--week-only", action="store_true", help="only the one more week (the years' database is made once)")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    xml, csv = inputs(a.apple, a.cgm)
    floors = build_floors()
    hp = a.binary or build_healthpipe()
    db, page = os.path.join(WORK, "ten-years.sqlite"), os.path.join(WORK, "ten-years.html")
    c_xml, c_csv = os.path.join(WORK, "ten-years-c-xml.sqlite"), os.path.join(WORK, "ten-years-c-csv.sqlite")

    if not a.week_only:
        ten_years(a, hp, floors, xml, csv, db, page, c_xml, c_csv)
    one_more_week(a, hp, xml, csv)


def ten_years(a, hp, floors, xml, csv, db, page, c_xml, c_csv):
    builds = {"healthpipe": hp}
    if a.baseline:
        builds["baseline"] = a.baseline
    hp_runs = {name: {"import": [], "page": [], "both": []} for name in builds}
    c_runs = {"xml": [], "csv": [], "both": []}
    for _ in range(a.repeat):
        for name, binary in builds.items():
            imported, paged = healthpipe_job(binary, xml, csv, db, page)
            hp_runs[name]["import"].append(imported)
            hp_runs[name]["page"].append(paged)
            hp_runs[name]["both"].append(together(imported, paged))
        x, c = floors_job(floors, xml, csv, c_xml, c_csv)
        c_runs["xml"].append(x)
        c_runs["csv"].append(c)
        c_runs["both"].append(together(x, c))

    gb = (os.path.getsize(xml) + os.path.getsize(csv)) / 1e9
    print(f"\nTen years: {a.apple:,} Apple records + {a.cgm:,} CGM readings ({gb:.1f} GB); median of {a.repeat} rounds\n")
    print("| job | wall s | CPU s | peak RSS MiB | wall ÷ C floors | CPU ÷ C floors |")
    print("|---|---|---|---|---|---|")
    ref_line, ref = row("C floors: xml_to_sqlite + csv_to_sqlite (threads, unique)", c_runs["both"])
    for name in builds:
        print(row(f"{name}: import both files, every derived row", hp_runs[name]["import"], ref)[0])
        print(row(f"{name}: page, last 14 days", hp_runs[name]["page"], ref)[0])
        print(row(f"**{name}: import + page**", hp_runs[name]["both"], ref)[0])
    print(ref_line)
    print(row("C xml_to_sqlite threads unique (the export)", c_runs["xml"], ref)[0])
    print(row("C csv_to_sqlite threads unique (the CSV)", c_runs["csv"], ref)[0])



def one_more_week(a, hp, xml, csv):
    """The last week of the CGM file into a database of everything before it, against the week alone
    (and the same with `--baseline`, interleaved)."""
    end = last_timestamp(csv)
    at = (datetime.fromisoformat(end) - timedelta(days=7)).date().isoformat() + "T00:00:00"
    before, week = cut(csv, at)
    base, copy, empty = (os.path.join(WORK, f"ten-years-{n}.sqlite") for n in ("base", "copy", "empty"))
    fresh(base)
    subprocess.check_call([hp, "import", xml, before, "--db", base, "--timezone", ZONE, "--quiet"])
    builds = {"healthpipe": hp, **({"baseline": a.baseline} if a.baseline else {})}
    into = {name: [] for name in builds}
    alone = {name: [] for name in builds}
    for _ in range(a.repeat):
        for name, binary in builds.items():
            fresh(copy)
            shutil.copyfile(base, copy)
            os.sync()  # the copy on disk, as a user's database is, not dirty pages flushed during the import
            into[name].append(run([binary, "import", week, "--db", copy, "--timezone", ZONE, "--quiet"])[0])
            fresh(empty)
            alone[name].append(run([binary, "import", week, "--db", empty, "--timezone", ZONE, "--quiet"])[0])
    rows = sum(1 for _ in open(week)) - 1
    print(f"\nOne more week ({rows:,} rows from {at[:10]}) into the ten years, median of {a.repeat}\n")
    print("| build | the week into the ten-year database, s | into an empty database, s | **difference**, s |")
    print("|---|---|---|---|")
    for name in builds:
        i, e = statistics.median(into[name]), statistics.median(alone[name])
        print(f"| {name} | {i:.3f} | {e:.3f} | **{i - e:+.3f}** |")


if __name__ == "__main__":
    main()
