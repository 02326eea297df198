"""Runs a command and reports wall seconds and peak resident memory (MiB) of that process tree's largest member."""
import os
import subprocess
import sys
import time


def measure(cmd, stdin=None, env=None):
    """Returns (wall_seconds, peak_rss_mib, exit_code) for `cmd`."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if code not in (0, 3):
        print(f"command failed ({code}): {' '.join(cmd)}\n{err[-2000:]}", file=sys.stderr)
    return wall, usage.ru_maxrss / 1024.0, code
