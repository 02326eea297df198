"""Shared benchmark plumbing: paths, fresh databases, release builds, and `measure`, which runs a
command and reports wall seconds and peak resident memory (MiB) of that process."""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared"))
WORK = os.path.join(ROOT, "bench-work")


def fresh(path):
    """Removes a database and its WAL/journal files, so the next job starts from nothing."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def build_healthpipe():
    """Builds the release binary and returns its path."""
    subprocess.check_call(["swift", "build", "-c", "release", "--product", "healthpipe"], cwd=ROOT, stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", "release", "healthpipe")


def build_floors():
    """Builds the C reference programs from ../shared/tools/floors and returns their folder."""
    floors = os.path.join(WORK, "floors")
    subprocess.check_call(["bash", os.path.join(SHARED, "tools", "floors", "build.sh"), floors], stdout=subprocess.DEVNULL)
    return floors


def measure(cmd, stdin=subprocess.DEVNULL, env=None):
    """Returns (wall_seconds, peak_rss_mib, exit_code) for `cmd`. Stderr goes to a file (a tool
    that warns per row, like sqlite3 .import on ragged rows, would block on a full pipe)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 3):
            err.seek(0)
            print(f"command failed ({code}): {' '.join(cmd)}\n{err.read().decode(errors='replace')[-2000:]}", file=sys.stderr)
    return wall, usage.ru_maxrss / 1024.0, code
