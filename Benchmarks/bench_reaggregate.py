#!/usr/bin/env python3
"""Ten years of 5-minute CGM for one subject (1,051,200 readings) in SQLite: times
`healthpipe reaggregate` (sqlite-source → (resample) classify, daily, ridge predict and ridge alerts
at every reading → one replace-derived transaction) and reports wall seconds and peak RSS.

Usage: python3 Benchmarks/bench_reaggregate.py [--repeat 3] [--keep DIR] [--baseline BIN]
Needs a release build (swift build -c release). --baseline times a second binary (e.g. a copy of
main's) side by side: each run of the branch is followed by the same run of the baseline on its own
copy of the database, so both see the same machine load."""
import argparse, math, os, random, shutil, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import arguments, fresh, measure, work_folder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release", "healthpipe")


def generate(path, years=10):
    """A simglucose-format CSV: a mean-reverting random walk with three meal bumps a day, 40–400 mg/dL."""
    rng = random.Random(20240101)
    n = years * 365 * 288
    g, drift = 120.0, 0.0
    with open(path, "w") as f:
        f.write("timestamp,patient,cgm_mgdl,carbs_g,insulin_u\n")
        day0 = 0
        for i in range(n):
            minute = (i % 288) * 5
            if i % 288 == 0:
                day0 = i // 288
            meal = sum(60 * math.exp(-((minute - m) / 60.0) ** 2) for m in (480, 780, 1140))
            drift = 0.9 * drift + rng.gauss(0, 2.0)
            g = g + 0.05 * (120 + meal - g) + drift * 0.3
            v = min(400.0, max(40.0, g + rng.gauss(0, 2)))
            days = day0
            # civil date from days since 2010-01-01
            y, m, d = civil(days + 14610)
            f.write("%04d-%02d-%02dT%02d:%02d:00,bench,%.2f,0.0,0.0\n" % (y, m, d, minute // 60, minute % 60, v))
    return n


def civil(z):
    """Days since 1970-01-01 → (year, month, day) (Howard Hinnant's algorithm)."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (m <= 2), m, d)


def main():
    ap = arguments(3, keep=True, baseline="to time side by side (interleaved)")
    a = ap.parse_args()
    work = work_folder(a.keep, "hp-reagg-")
    csv = os.path.join(work, "tenyears.csv")
    db = os.path.join(work, "tenyears.sqlite")
    if not os.path.exists(db):
        n = generate(csv)
        print(f"generated {n:,} readings", file=sys.stderr)
        subprocess.run([BIN, "import", csv, "--db", db], check=True, stderr=subprocess.DEVNULL)
    def settings(name, text):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    seeds = settings("seeds.yml", "classify: { preset: seeds }\n")
    consensus = settings("consensus.yml", "classify: { preset: consensus }\n")
    every = settings("every.yml", "predict: { model: ridge, issue: every }\n")
    # The job: resample + classify + daily metrics + ridge predictions at every reading (latest stored).
    full_seeds = settings("full-seeds.yml", "resample: {}\nclassify: { preset: seeds }\npredict: { model: ridge }\n")
    full_consensus = settings("full-consensus.yml", "resample: {}\nclassify: { preset: consensus }\npredict: { model: ridge }\n")
    binaries = [("branch", BIN, db)]
    if a.baseline:
        # The baseline works on a copy, so each binary finds the database as its own runs left it.
        base_db = os.path.join(work, "tenyears-baseline.sqlite")
        fresh(base_db)
        shutil.copyfile(db, base_db)
        binaries.append(("baseline", a.baseline, base_db))

    def reagg(binary, path, config):
        return [binary, "reaggregate", "--db", path, "--config", config]

    # (name, settings run once before the job, settings run before each timed run, settings timed
    # in turn), all but the timed ones untimed. Alternating presets makes every run relabel all
    # 1,051,200 readings. resample's grid is stored by the first run that names it and reconciled by
    # the next ones; a run without resample deletes it.
    jobs = [
        ("same settings as the import (no band changes)", [], [], [seeds]),
        ("preset switched (every band rewritten)", [], [], [consensus, seeds]),
        ("resample + classify + daily + ridge, grid stored (re-run)", [full_seeds], [], [full_seeds]),
        ("resample + preset switched + daily + ridge, grid stored", [full_seeds], [], [full_consensus, full_seeds]),
        ("resample + classify + daily + ridge, no grid yet (1,051,199 rows inserted)", [], [seeds], [full_seeds]),
        ("resample dropped from the settings (1,051,199 grid rows deleted)", [], [full_seeds], [seeds]),
        ("every forecast stored (6.3M forecast rows)", [], [], [every]),
    ]
    for _, binary, path in binaries:
        subprocess.run(reagg(binary, path, seeds), check=True, stderr=subprocess.DEVNULL)
    names = [n for n, _, _ in binaries]
    print("| job | " + " | ".join(f"{n} wall s, median (min–max) | {n} peak RSS MiB" for n in names) + " |")
    print("|---|" + "---|---|" * len(names))
    for name, prepare, before_each, timed in jobs:
        for _, binary, path in binaries:
            for config in prepare:
                subprocess.run(reagg(binary, path, config), check=True, stderr=subprocess.DEVNULL)
        runs = {n: [] for n in names}
        for i in range(a.repeat):
            for n, binary, path in binaries:
                for config in before_each:
                    subprocess.run(reagg(binary, path, config), check=True, stderr=subprocess.DEVNULL)
                runs[n].append(measure(reagg(binary, path, timed[i % len(timed)]))[:2])
        cells = []
        for n in names:
            walls = sorted(r[0] for r in runs[n])
            cells.append(f"{walls[len(walls) // 2]:.2f} ({walls[0]:.2f}–{walls[-1]:.2f}) | {max(r[1] for r in runs[n]):.0f}")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
        # Leave the databases as the next job expects them (seeds bands, no grid, no stored forecasts).
        for _, binary, path in binaries:
            subprocess.run(reagg(binary, path, seeds), check=True, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
