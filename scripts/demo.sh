#!/usr/bin/env bash
# The first command: sets up, builds, and imports the bundled real samples into out/health.sqlite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product healthpipe
bin=.build/release/healthpipe
mkdir -p out
set +e
"$bin" import samples/dexcom-clarity/*.csv samples/libreview/*.csv samples/medtronic-carelink/*.csv \
  samples/apple-health/healthkit-to-sqlite_export.zip \
  --db out/health.sqlite --timezone Europe/London --subject demo --report out/import-report.json
status=$?
set -e
echo
echo "exit code $status (0 ok, 3 = finished with quarantined rows: see out/health.quarantine.ndjson)"
sqlite3 -header -column out/health.sqlite \
  "SELECT metric, source, count(*) AS readings, datetime(min(start),'unixepoch') AS first_utc, datetime(max(start),'unixepoch') AS last_utc FROM measurements GROUP BY metric, source;"
echo
sqlite3 -header -column out/health.sqlite "SELECT * FROM day_log ORDER BY day LIMIT 10;"
[ $status -eq 0 ] || [ $status -eq 3 ]
echo
"$bin" page --db out/health.sqlite -o out/health.html
echo "open $(pwd)/out/health.html in a browser: the day view, AGP report and day table of the latest 14 days (one self-contained file)"
