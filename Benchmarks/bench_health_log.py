#!/usr/bin/env python3
"""The personal health log on a large store, side by side in one run (this machine is shared and
noisy: compare ratios).

Usage: python3 Benchmarks/bench_health_log.py [--rows 1000000] [--repeat 5] [--reference OTHER_HEALTHPIPE]

Generates a Clarity export with ../shared/tools/gen_cgm_csv.py (cached in bench-work/) and times,
each on its own database:
  - the import of that export (this build, and --reference, e.g. the build before issue 13, to show
    the health log costs an import nothing);
  - `healthpipe reports add` (one report, through the engine and the refresh of its day) on an empty
    database and on the database holding the whole export: an entry costs what it costs on a new
    store, since only its day is brought up to date;
  - `reports edit`, `reports delete` (with the refresh), `reports summary`, `alerts check` and `days`
    on the large store, beside the process-start floor (`healthpipe --version`).
Prints a Markdown table of median wall seconds and peak RSS.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from measure import WORK, arguments, build_healthpipe, clarity_csv, fresh, measure, median_table  # noqa: E402

SETTINGS = """predict: false
alerts: false
reports:
  reminder: "20:00"
  thresholds: [{ metric: body_temperature, above: 37.5, days: 7 }]
"""


def main():
    ap = arguments(5, size=("--rows", 1_000_000, "report rows in the generated file"))
    ap.add_argument("--reference", help="another healthpipe binary to import with, side by side")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    csv_path = clarity_csv(os.path.join(WORK, f"clarity-{a.rows}.csv"), a.rows)
    hp = build_healthpipe()
    big, empty = os.path.join(WORK, "log-big.sqlite"), os.path.join(WORK, "log-empty.sqlite")
    settings = os.path.join(WORK, "log-settings.yml")
    with open(settings, "w") as f:
        f.write(SETTINGS)

    times = {}

    def note(name, cmd, before=None):
        if before:
            before()
        wall, rss, code = measure(cmd)
        if code not in (0, 1, 3):
            sys.exit(f"{name}: exit {code}")
        times.setdefault(name, []).append((wall, rss))

    imports = [("import, this build", hp)] + ([("import, reference build", a.reference)] if a.reference else [])
    day = None
    for r in range(a.repeat):
        for name, binary in imports:
            note(name, [binary, "import", csv_path, "--db", big, "--timezone", "UTC", "--quiet"], lambda: fresh(big))
        if day is None:
            day = subprocess.check_output(["sqlite3", big, "SELECT max(day) FROM daily_summaries"], text=True).strip()
            subprocess.check_call([hp, "reaggregate", "--db", big, "--config", settings, "--quiet"])
            shutil.copy(big, big + ".base")
        shutil.copy(big + ".base", big)
        fresh(empty)
        at = f"{day} 08:{r:02d}"
        add = ["reports", "add", "--timezone", "UTC", "--at", at, "--value", "body_temperature=37.9:4", "--value", "systolic=131:3"]
        note("reports add, new database", [hp] + add + ["--db", empty])
        note("reports add, database of the export", [hp] + add + ["--db", big])
        rid = day.replace("-", "") + f"-08{r:02d}"
        note("reports edit, database of the export", [hp, "reports", "edit", rid, "--db", big, "--value", "systolic=128:3"])
        note("reports summary, database of the export", [hp, "reports", "summary", "--db", big])
        note("alerts check, database of the export", [hp, "alerts", "check", "--db", big, "--timezone", "UTC", "--now", f"{day} 21:00",
                                                      "--dry-run"])
        note("days --last 30, database of the export", [hp, "days", "--db", big, "--last", "30"])
        note("reports delete, database of the export", [hp, "reports", "delete", rid, "--db", big])
        note("process start (healthpipe --version)", [hp, "--version"])

    print(f"\n{a.rows:,} Clarity rows; median of {a.repeat} runs\n")
    median_table(times, "seconds", 3, align="---:")


if __name__ == "__main__":
    main()
