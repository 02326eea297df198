#!/usr/bin/env python3
"""Runs every vendor folder's independent counter with --check: each expected.json must be exactly
what its count.py computes from the files (so the expected numbers never come from HealthPipe)."""
import pathlib
import subprocess
import sys

here = pathlib.Path(__file__).resolve().parent
failed = []
# Besides each count.py, the other independent scripts of expected numbers (Apple's day totals).
counters = sorted(here.glob("*/count.py")) + sorted(here.glob("*/day_totals.py"))
for counter in counters:
    r = subprocess.run([sys.executable, counter.name, "--check"], cwd=counter.parent, capture_output=True, text=True)
    if r.returncode != 0:
        failed.append(f"{counter.parent.name}: {r.stdout}{r.stderr}".strip())
for f in failed:
    print(f)
print(f"{len(counters) - len(failed)} counters agree, {len(failed)} differ")
sys.exit(1 if failed or not counters else 0)
