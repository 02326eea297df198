#!/usr/bin/env python3
"""The cohort driver's end-to-end test (run by Tests/EndToEndTests/Scale/SparkCohortTests.swift):
a generated cohort of 100+ participants through examples/spark/cohort.py in local[2] mode, twice.

- One task is killed mid-way (its healthpipe gets SIGKILL while writing a large participant's part):
  Spark retries it and the outputs hold every record exactly once.
- The second run changes nothing: every part and manifest byte for byte, the cohort table value for value.
- The cohort table equals `healthpipe metrics --per period` for every participant.
- With --jdbc-url, the tables are also written to PostgreSQL over JDBC (SparkCohortTests compares them
  with participants.json).

    python3 examples/spark/test_cohort.py --binary .build/debug/healthpipe [--participants 100] [--work DIR]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BIG = "P042"


def snapshot(folder):
    """Every visible file under folder → its bytes (hidden temporary files apart)."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for f in files:
            if not f.startswith("."):
                path = os.path.join(root, f)
                with open(path, "rb") as fh:
                    out[os.path.relpath(path, folder)] = fh.read()
    return out


class Killer(threading.Thread):
    """SIGKILLs, once, the healthpipe run importing BIG while its measurements part is being written."""

    def __init__(self, binary, output):
        super().__init__(daemon=True)
        self.binary, self.output = os.path.realpath(binary), output
        self.killed = None
        self.stop = threading.Event()

    def target(self):
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
                if len(argv) > 2 and os.path.basename(argv[0].decode()) == os.path.basename(self.binary) and argv[1] == b"run":
                    if f'subject: "{BIG}"' in open(argv[2].decode()).read():
                        return int(pid)
            except OSError:
                continue
        return None

    def run(self):
        temp = os.path.join(self.output, "parts", "measurements", f"subject={BIG}", ".part-*.partial-*")
        while not self.stop.is_set() and self.killed is None:
            pid = self.target()
            if pid and glob.glob(temp):
                os.kill(pid, signal.SIGKILL)
                self.killed = pid
            time.sleep(0.01)


def cohort(args, inputs, output, env):
    cmd = [sys.executable, os.path.join(HERE, "cohort.py"), "--master", "local[2,4]", "--binary", args.binary,
           "--input", inputs, "--output", output, "--shards", "8", "--timezone", "UTC"]
    if args.jdbc_url:
        cmd += ["--jdbc-url", args.jdbc_url, "--jdbc-user", args.jdbc_user]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"cohort.py failed ({run.returncode}):\n{run.stderr[-4000:]}")
    return run


def metrics(binary, participant, files, work):
    """`healthpipe metrics --per period` of one participant: its file, or its files imported together."""
    common = ["--per", "period", "--json", "--timezone", "UTC", "--subject", participant]
    if len(files) == 1:
        out = subprocess.run([binary, "metrics", "--input", files[0]] + common, capture_output=True, text=True, check=True)
    else:
        db = os.path.join(work, participant + ".sqlite")
        subprocess.run([binary, "import"] + files + ["--db", db, "--timezone", "UTC", "--subject", participant, "--quiet"],
                       capture_output=True, check=True)
        out = subprocess.run([binary, "metrics", "--db", db] + common, capture_output=True, text=True, check=True)
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    assert len(lines) == 1, f"{participant}: {len(lines)} metric sets"
    return lines[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--participants", type=int, default=100)
    p.add_argument("--work")
    p.add_argument("--jdbc-url", help="also write the cohort tables to this PostgreSQL (the caller checks them there)")
    p.add_argument("--jdbc-user")
    args = p.parse_args()
    args.binary = os.path.abspath(args.binary)
    work = args.work or tempfile.mkdtemp(prefix="hp-spark-")
    inputs, output = os.path.join(work, "cohort"), os.path.join(work, "out")
    shutil.rmtree(inputs, ignore_errors=True)
    shutil.rmtree(output, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(HERE, "generate_cohort.py"), inputs, "--participants", str(args.participants),
                    "--days", "2", "--big", f"{BIG}:240"], check=True)
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable)
    started = time.time()

    # Run 1, with BIG's healthpipe killed mid-way: the task fails and Spark retries it.
    killer = Killer(args.binary, output)
    killer.start()
    cohort(args, inputs, output, env)
    killer.stop.set()
    assert killer.killed, "the large participant's import finished before it could be killed"
    print(f"run 1: {time.time() - started:.0f} s (killed healthpipe pid {killer.killed}, task retried)", file=sys.stderr)

    first = snapshot(os.path.join(output, "parts"))
    table = json.load(open(os.path.join(output, "cohort", "participants.json")))
    participants = sorted(os.listdir(inputs))
    assert [r["participant"] for r in table] == participants, "one row per participant"

    # Every record exactly once: unique ids per table, and each participant's readings all there.
    for name in ("measurements", "events"):
        ids = [json.loads(l)["id"] for k, v in first.items() if k.startswith(name + "/") for l in v.splitlines()]
        assert len(ids) == len(set(ids)), f"{name}: {len(ids) - len(set(ids))} duplicate records"
    readings = {r["participant"]: r["n_readings"] for r in table}
    assert readings[BIG] == 240 * 288, f"{BIG}: {readings[BIG]} readings"
    assert all(readings[pid] >= 2 * 288 for pid in participants)

    # Task i imported exactly the participants `healthpipe run --shard i/8` keeps.
    tasks = {m["participant"]: m["task"] for m in json.load(open(os.path.join(output, "manifests.json")))}
    shard = 3
    yml = os.path.join(work, "all.yml")
    with open(yml, "w") as f:
        f.write("timezone: UTC\nsources:\n")
        for pid in participants:
            f.write(f'  {pid}: {{ type: auto, path: {json.dumps(os.path.join(inputs, pid, "clarity.csv"))}, subject: "{pid}" }}\n')
        f.write(f"sinks:\n  out: {{ type: ndjson, inputs: [{', '.join(participants)}], path: shard.ndjson, include: [events] }}\n")
    subprocess.run([args.binary, "run", yml, "--shard", f"{shard}/8", "--quiet"], check=True, capture_output=True)
    kept = {json.loads(l)["subject"] for l in open(os.path.join(work, "shard.ndjson"))}
    assert kept == {pid for pid, t in tasks.items() if t == shard}, f"task {shard} ≠ --shard {shard}/8"

    # Run 2 changes nothing.
    started = time.time()
    cohort(args, inputs, output, env)
    print(f"run 2: {time.time() - started:.0f} s", file=sys.stderr)
    second = snapshot(os.path.join(output, "parts"))
    assert second.keys() == first.keys(), f"files differ: {sorted(second.keys() ^ first.keys())[:5]}"
    changed = [k for k in first if first[k] != second[k]]
    assert not changed, f"the second run changed {changed[:5]}"
    assert json.load(open(os.path.join(output, "cohort", "participants.json"))) == table

    # The cohort table equals `healthpipe metrics --per period` per participant.
    def check(pid):
        files = sorted(glob.glob(os.path.join(inputs, pid, "*")))
        return pid, metrics(args.binary, pid, files, work)
    rows = {r["participant"]: r for r in table}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for pid, ref in pool.map(check, participants):
            row = rows[pid]
            assert row["n_readings"] == ref["n_readings"], f"{pid}: {row['n_readings']} readings, metrics says {ref['n_readings']}"
            for k in ("mean", "sd", "cv_pct", "gmi_pct", "tir_70_180_pct", "tbr_lt54_pct"):
                assert abs(row[k] - ref[k]) <= 1e-9 * max(1.0, abs(ref[k])), f"{pid}: {k} {row[k]} vs metrics {ref[k]}"
    print(f"ok: {len(participants)} participants, {sum(readings.values())} readings, cohort table = metrics --per period",
          file=sys.stderr)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
