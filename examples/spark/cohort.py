#!/usr/bin/env python3
"""A cohort on Apache Spark with HealthPipe: every participant's exports imported on the executors,
the results gathered as Hive-style partitioned NDJSON, and cohort tables computed with Spark SQL.

    spark-submit --master yarn --files dist/healthpipe examples/spark/cohort.py \\
        --input /data/cohort --output /data/out --timezone Europe/London
    python3 examples/spark/cohort.py --master 'local[2]' --binary .build/release/healthpipe \\
        --input /data/cohort --output /data/out

--input holds one folder per participant (its name is the participant id, stored as the subject)
with that participant's exports in any format HealthPipe detects. --input and --output must be
visible to every executor (a shared file system); the binary is shipped by Spark (--binary, or
spark-submit --files / --archives) and resolved on the executor through SparkFiles.

What happens (docs/scale-out.md):
1. Participants are spread over --shards tasks by the same stable hash as `healthpipe --shard`
   (fmix64(FNV-1a 64(id)) mod n): task i gets shard i, the same participants on every run.
2. Each task runs, per participant, `healthpipe run` on a small generated pipeline — an `auto`
   source per file, classify (bands), and the `ndjson` sink with `partition_by: subject` and
   `source_id: <participant>` — so each participant owns one part per table
   (out/parts/measurements/subject=P017/part-<hash>.ndjson, events likewise), replaced, never appended
   to, by a re-run or a retried task, and the same bytes every time. Cohort tables are computed from
   the readings, so no per-day summaries are written (theirs would follow the order several files'
   readings arrived in, to the last digit). The command gets an empty environment; a non-zero exit fails the task and
   Spark retries it.
3. Each task returns its participants' manifest lines; the driver checks every output against them
   (rows, SHA-256).
4. Spark SQL over out/parts/measurements: per participant n, mean, SD, CV, GMI and time in ranges
   (every reading counts once, as `healthpipe metrics` counts them), and the cohort's distribution of
   each; written as Parquet (out/cohort/…, the per-participant table also as cohort/participants.json)
   and, with --jdbc-url, to PostgreSQL over JDBC
   (spark-submit --packages org.postgresql:postgresql:42.7.4; the password from PGPASSWORD).
"""
import argparse
import hashlib
import json
import os
import stat
import subprocess
import sys
import tempfile
import time

M64 = (1 << 64) - 1


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def fmix64(h):
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & M64
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & M64
    return h ^ (h >> 33)


def shard_of(participant, n):
    """The shard `healthpipe --shard i/n` puts this id in (docs/scale-out.md)."""
    return fmix64(fnv1a64(participant)) % n


def part_name(identity):
    """The part (and manifest) name of a source identity, as the partitioned ndjson sink names it."""
    return "part-%016x.ndjson" % fnv1a64(identity)


def participants(input_dir):
    """(id, [files]) for every participant folder, in name order."""
    out = []
    for name in sorted(os.listdir(input_dir)):
        folder = os.path.join(input_dir, name)
        if name.startswith((".", "_")) or not os.path.isdir(folder):
            continue
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                       if not f.startswith(".") and os.path.isfile(os.path.join(folder, f)))
        if files:
            out.append((name, files))
    return out


def quoted(text):
    return json.dumps(text)  # a JSON string is a valid YAML double-quoted scalar


def pipeline(participant, files, parts, quarantine, timezone):
    sources = "".join(f"  f{i}: {{ type: auto, path: {quoted(f)} }}\n" for i, f in enumerate(files))
    names = ", ".join(f"f{i}" for i in range(len(files)))
    return (f"timezone: {quoted(timezone)}\nsubject: {quoted(participant)}\nquarantine: {quoted(quarantine)}\n"
            f"sources:\n{sources}"
            f"transforms:\n  bands: {{ type: classify, inputs: [{names}], preset: consensus }}\n"
            f"sinks:\n  parts: {{ type: ndjson, inputs: [bands], path: {quoted(parts)}, partition_by: subject, "
            f"source_id: {quoted(participant)} }}\n")


def resolve_binary(conf):
    """The healthpipe binary on this executor: shipped with --files (SparkFiles) or inside an --archives folder."""
    if conf["binary_in_archive"]:
        from pyspark import SparkFiles
        for base in (os.getcwd(), SparkFiles.getRootDirectory()):
            path = os.path.join(base, conf["binary_in_archive"])
            if os.path.exists(path):
                return path
        raise FileNotFoundError(conf["binary_in_archive"] + " not found in the executor's archives")
    from pyspark import SparkFiles
    path = SparkFiles.get(conf["binary_name"])
    if not os.access(path, os.X_OK):
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def import_partition(items, conf):
    """One task: each participant through `healthpipe run`; yields its manifest lines."""
    from pyspark import TaskContext
    task = TaskContext.get().partitionId()
    binary = resolve_binary(conf)
    parts = os.path.join(conf["output"], "parts")
    for participant, files in items:
        with tempfile.TemporaryDirectory(prefix="healthpipe-") as tmp:
            yml = os.path.join(tmp, "pipeline.yml")
            quarantine = os.path.join(conf["output"], "_quarantine", participant + ".ndjson")
            with open(yml, "w") as f:
                f.write(pipeline(participant, files, parts, quarantine, conf["timezone"]))
            run = subprocess.run([binary, "run", yml, "--quiet"], env={}, cwd=tmp, capture_output=True, text=True)
        # 0: done; 3: done with quarantined rows. A failure or a kill (negative) fails the task: Spark retries it.
        if run.returncode not in (0, 3):
            raise RuntimeError(f"{participant}: healthpipe exited {run.returncode}: {run.stderr[-2000:]}")
        with open(os.path.join(parts, "_manifests", part_name(participant))) as manifest:
            for line in manifest:
                entry = json.loads(line)
                entry["participant"] = participant
                entry["task"] = task
                entry["quarantined"] = run.returncode == 3
                yield entry


def verify(manifests, output):
    """Every output a task reported is there with its rows and bytes."""
    for m in manifests:
        path = os.path.join(output, "parts", m["output"])
        digest = hashlib.sha256()
        rows = 0
        with open(path, "rb") as f:
            for line in f:
                digest.update(line)
                rows += 1
        if rows != m["rows"] or digest.hexdigest() != m["sha256"]:
            raise RuntimeError(f"{m['output']}: {rows} rows / {digest.hexdigest()} on disk, manifest says {m['rows']} / {m['sha256']}")


# The measurement records of the ndjson sink (docs/scale-out.md); `subject` is also the partition column.
# device and metadata are JSON objects, kept as their text.
MEASUREMENTS = ("type STRING, id STRING, subject STRING, metric STRING, source STRING, start BIGINT, `end` BIGINT, "
                "utc_offset BIGINT, value DOUBLE, unit STRING, flags BIGINT, band STRING, device STRING, metadata STRING, "
                "file STRING, line BIGINT")

PER_PARTICIPANT = """
SELECT subject AS participant,
       count(*) AS n_readings,
       avg(value) AS mean,
       stddev_samp(value) AS sd,
       100D * stddev_samp(value) / avg(value) AS cv_pct,
       3.31D + 0.02392D * avg(value) AS gmi_pct,
       100D * count_if(value < 54) / count(*) AS tbr_lt54_pct,
       100D * count_if(value < 70) / count(*) AS tbr_lt70_pct,
       100D * count_if(value >= 70 AND value <= 180) / count(*) AS tir_70_180_pct,
       100D * count_if(value > 180) / count(*) AS tar_gt180_pct,
       min(start) AS first_reading,
       max(start) AS last_reading
FROM (SELECT DISTINCT id, subject, value, start FROM measurements
      WHERE metric = 'glucose' AND coalesce(flags, 0) & 128 = 0)
GROUP BY subject
"""

DISTRIBUTION = """
SELECT name,
       count(*) AS participants,
       avg(x) AS mean,
       stddev_samp(x) AS sd,
       min(x) AS min,
       percentile(x, 0.25) AS p25,
       percentile(x, 0.5) AS median,
       percentile(x, 0.75) AS p75,
       max(x) AS max
FROM (SELECT stack(4, 'tir_70_180_pct', tir_70_180_pct, 'gmi_pct', gmi_pct, 'cv_pct', cv_pct, 'mean', mean) AS (name, x)
      FROM participants)
GROUP BY name
UNION ALL
SELECT 'meets_tir_70_and_cv_36_pct' AS name, count(*), 100D * count_if(tir_70_180_pct > 70 AND cv_pct <= 36) / count(*),
       CAST(NULL AS DOUBLE), CAST(NULL AS DOUBLE), CAST(NULL AS DOUBLE), CAST(NULL AS DOUBLE), CAST(NULL AS DOUBLE), CAST(NULL AS DOUBLE)
FROM participants
"""


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--input", required=True, help="one folder per participant")
    p.add_argument("--output", required=True)
    p.add_argument("--timezone", default="UTC", help="zone of naive local timestamps (CSV exports)")
    p.add_argument("--shards", type=int, default=8, help="tasks the participants are spread over")
    p.add_argument("--binary", help="healthpipe to ship with SparkContext.addFile (else shipped by spark-submit --files)")
    p.add_argument("--binary-name", default="healthpipe", help="its file name in SparkFiles (with spark-submit --files)")
    p.add_argument("--binary-in-archive", help="its path inside an archive shipped with spark-submit --archives (e.g. hp/healthpipe)")
    p.add_argument("--master", help="Spark master when not run by spark-submit (e.g. 'local[2]')")
    p.add_argument("--jdbc-url", help="also write the cohort tables to PostgreSQL (jdbc:postgresql://host/db)")
    p.add_argument("--jdbc-user", default=os.environ.get("PGUSER"))
    p.add_argument("--jdbc-jar", help="the PostgreSQL JDBC driver jar (default: Debian's libpostgresql-jdbc-java, "
                   "/usr/share/java/postgresql.jar, when there; else give it with spark-submit --packages)")
    p.add_argument("--no-verify", action="store_true", help="skip checking outputs against the manifests")
    args = p.parse_args(argv)

    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("healthpipe-cohort")
    if args.master:
        builder = builder.master(args.master)
    if args.jdbc_url:
        jar = args.jdbc_jar or "/usr/share/java/postgresql.jar"
        if os.path.exists(jar):
            builder = builder.config("spark.jars", jar)
        elif args.jdbc_jar:
            sys.exit(f"--jdbc-jar {jar}: no such file")
    spark = (builder.config("spark.ui.enabled", "false")
             .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
             .getOrCreate())
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    output = os.path.abspath(args.output)
    conf = {"output": output, "timezone": args.timezone, "binary_in_archive": args.binary_in_archive,
            "binary_name": os.path.basename(args.binary) if args.binary else args.binary_name}
    if args.binary:
        sc.addFile(os.path.abspath(args.binary))

    started = time.perf_counter()
    cohort = participants(os.path.abspath(args.input))
    # Shard i of n is task i: the driver groups participants by the --shard hash, and one slice per
    # shard needs no shuffle to get them there.
    n = max(1, args.shards)
    shards = [[(pid, files) for pid, files in cohort if shard_of(pid, n) == i] for i in range(n)]
    tasks = sc.parallelize(shards, n).flatMap(lambda shard: shard)
    manifests = tasks.mapPartitions(lambda items: import_partition(items, conf)).collect()
    imported = time.perf_counter()
    if not args.no_verify:
        verify(manifests, output)
    with open(os.path.join(output, "manifests.json"), "w") as f:
        json.dump(sorted(manifests, key=lambda m: m["output"]), f, indent=1, sort_keys=True)

    spark.read.schema(MEASUREMENTS).json(os.path.join(output, "parts", "measurements")).createOrReplaceTempView("measurements")
    per = spark.sql(PER_PARTICIPANT)
    per.createOrReplaceTempView("participants")
    dist = spark.sql(DISTRIBUTION)
    per.orderBy("participant").write.mode("overwrite").parquet(os.path.join(output, "cohort", "participants"))
    dist.orderBy("name").write.mode("overwrite").parquet(os.path.join(output, "cohort", "distribution"))
    if args.jdbc_url:
        props = {"driver": "org.postgresql.Driver", "user": args.jdbc_user or "", "password": os.environ.get("PGPASSWORD", "")}
        per.write.jdbc(args.jdbc_url, "cohort_participants", mode="overwrite", properties=props)
        dist.write.jdbc(args.jdbc_url, "cohort_distribution", mode="overwrite", properties=props)

    # The per-participant table also as one JSON document (small: a row per participant), for people and tests.
    table = [r.asDict() for r in per.orderBy("participant").collect()]
    with open(os.path.join(output, "cohort", "participants.json"), "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
    rows = sum(m["rows"] for m in manifests)
    print(f"{len(cohort)} participants, {len(manifests)} outputs, {rows} records; cohort tables in {output}/cohort", file=sys.stderr)
    print(f"seconds: import stage {imported - started:.2f}, checks and tables {time.perf_counter() - imported:.2f}", file=sys.stderr)
    for r in dist.orderBy("name").collect():
        print("  " + "  ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in r.asDict().items()), file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
