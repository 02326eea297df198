"""Shared benchmark plumbing: paths, fresh databases, release builds, and `measure`, which runs a
command and reports wall seconds and peak resident memory (MiB) of that process."""
import argparse
import os
import statistics
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


class Run(tuple):
    """One command's (wall_seconds, peak_rss_mib, exit_code), with its CPU seconds (user + system,
    the process and its threads) as `.cpu`: unpacks as the three it always did."""
    def __new__(cls, wall, rss, code, cpu):
        run = super().__new__(cls, (wall, rss, code))
        run.cpu = cpu
        return run


def measure(cmd, stdin=subprocess.DEVNULL, env=None):
    """Returns the `Run` of `cmd`. Stderr goes to a file (a tool that warns per row, like sqlite3
    .import on ragged rows, would block on a full pipe)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 3):
            err.seek(0)
            print(f"command failed ({code}): {' '.join(cmd)}\n{err.read().decode(errors='replace')[-2000:]}", file=sys.stderr)
    return Run(wall, usage.ru_maxrss / 1024.0, code, usage.ru_utime + usage.ru_stime)


def clarity_csv(path, rows):
    """A synthetic Clarity export of `rows` rows at `path` (../shared/tools/gen_cgm_csv.py), made once."""
    if not os.path.exists(path):
        subprocess.check_call([sys.executable, os.path.join(SHARED, "tools", "gen_cgm_csv.py"), "-n", str(rows), "-o", path])
    return path


def arguments(repeat, size=None, keep=False, baseline=None):
    """The flags every benchmark shares: `--repeat` rounds (run interleaved), the input's size
    (`size` = (flag, default, help)), `--keep` a folder for the generated inputs, and `--baseline`
    another healthpipe binary timed side by side (`baseline`: what it runs). Add the rest, then parse."""
    ap = argparse.ArgumentParser()
    if size:
        flag, default, text = size
        ap.add_argument(flag, type=int, default=default, help=text)
    ap.add_argument("--repeat", type=int, default=repeat, help="rounds (every job once per round, interleaved)")
    if keep:
        ap.add_argument("--keep", help="a folder that keeps the generated inputs between runs")
    if baseline:
        ap.add_argument("--baseline", help="another healthpipe binary " + baseline)
    return ap


def work_folder(keep, prefix):
    """The folder a benchmark keeps its inputs in: `--keep` (made if missing) or a new temporary one."""
    work = keep or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(work, exist_ok=True)
    return work


def interleave(jobs, repeat, before=None, skip=None):
    """Runs every job of `jobs` (name → function giving the command) once per round, `repeat` rounds,
    interleaved so the machine's load hits all alike; `before()` runs ahead of each job, and
    `skip(round, name)` leaves a job out of a round. Returns name → [(wall, rss, code)]."""
    results = {name: [] for name in jobs}
    for round_ in range(repeat):
        for name, cmd in jobs.items():
            if skip and skip(round_, name):
                continue
            if before:
                before()
            results[name].append(measure(cmd()))
    return results


def median_wall(runs):
    return statistics.median(w for w, _, _ in runs)


def ratio_table(results, ref, other_title, other):
    """The markdown table of wall and CPU medians and peak memory, each job ÷ the `ref` job (wall
    and CPU) and ÷ the `other` job (wall)."""
    ref_wall, other_wall = median_wall(results[ref]), median_wall(results[other])
    ref_cpu = statistics.median(r.cpu for r in results[ref])
    print(f"| job | wall s (median) | CPU s (median) | peak RSS MiB | wall ÷ C reference | CPU ÷ C reference | wall ÷ {other_title} |")
    print("|---|---|---|---|---|---|---|")
    for name, runs in results.items():
        wall, cpu = median_wall(runs), statistics.median(r.cpu for r in runs)
        rss = max(r for _, r, _ in runs)
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {wall / ref_wall:.2f} | {cpu / ref_cpu:.2f} | {wall / other_wall:.2f} |")


def median_table(results, wall_title, digits, align="---"):
    """The markdown table of each job's median wall seconds and median peak memory (runs are (wall, rss, …))."""
    print(f"| job | {wall_title} | peak RSS MiB |")
    print(f"|---|{align}|{align}|")
    for name, runs in results.items():
        print(f"| {name} | {statistics.median(r[0] for r in runs):.{digits}f} | {statistics.median(r[1] for r in runs):.0f} |")
