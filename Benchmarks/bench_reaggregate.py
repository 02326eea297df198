#!/usr/bin/env python3
"""Ten years of 5-minute CGM for one subject (1,051,200 readings) in SQLite: times
`healthpipe reaggregate` (sqlite-source → classify, daily, ridge predict and ridge alerts at every
reading → one replace-derived transaction) and reports wall seconds and peak RSS.

Usage: python3 Benchmarks/bench_reaggregate.py [--repeat 3] [--keep DIR]
Needs a release build (swift build -c release)."""
import argparse, math, os, random, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import measure

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
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="hp-reagg-")
    os.makedirs(work, exist_ok=True)
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
    reagg = [BIN, "reaggregate", "--db", db, "--config"]
    # (name, commands run in turn): alternating presets makes every run relabel all 1,051,200 readings.
    jobs = [
        ("same settings as the import (no band changes)", [reagg + [seeds]]),
        ("preset switched (every band rewritten)", [reagg + [consensus], reagg + [seeds]]),
        ("resample + classify + daily + ridge (grid rewritten)", [reagg + [full_seeds]]),
        ("resample + preset switched + daily + ridge", [reagg + [full_consensus], reagg + [full_seeds]]),
        ("every forecast stored (6.3M forecast rows)", [reagg + [every]]),
    ]
    subprocess.run(reagg + [seeds], check=True, stderr=subprocess.DEVNULL)
    print("| job | wall s (median) | peak RSS MiB |\n|---|---|---|")
    for name, cmds in jobs:
        runs = sorted(measure(cmds[i % len(cmds)])[:2] for i in range(a.repeat))
        wall, _ = runs[len(runs) // 2]
        print(f"| {name} | {wall:.2f} | {max(r[1] for r in runs):.0f} |")
        # Leave the database as the next job expects it (seeds bands, no stored forecast rows).
        subprocess.run(reagg + [seeds], check=True, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
