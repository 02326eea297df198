"""Runs a command and reports wall seconds and peak resident memory (MiB) of that process."""
import os
import subprocess
import sys
import tempfile
import time


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
