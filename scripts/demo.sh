#!/usr/bin/env bash
# The first command: sets up, builds, imports each bundled sample as its own person into
# out/health.sqlite, logs a patient's meals, exercise, a stress episode and favourite days with the
# CLI (as the seed apps' forms would), and writes one page per person (their richest 14 days of glucose,
# or what they logged) plus out/index.html linking them all. The README's screenshots are taken from these very files
# (scripts/make_screenshots.sh).
#
#   scripts/demo.sh                 HEALTHPIPE_BIN=path skips the build; DEMO_OUT=dir writes elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh demo   # only what the product needs: the C libraries and the sqlite3 shell
bin=${HEALTHPIPE_BIN:-}
if [ -z "$bin" ]; then swift build -c release --product healthpipe; bin=.build/release/healthpipe; fi
out=${DEMO_OUT:-out}
mkdir -p "$out"
db=$out/health.sqlite

# Exit 0 is a clean import, 3 one with quarantined rows (listed in the quarantine file): both go on.
import() { # subject zone files...
  local subject=$1 zone=$2
  shift 2
  "$bin" import "$@" --db "$db" --timezone "$zone" --subject "$subject" --quiet || [ $? -eq 3 ]
}
import clarity-g6 Europe/London samples/dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv
import libre-3 Europe/Berlin samples/libreview/cgm_format_FreeStyle_Libre_3_synthetic.csv
import carelink Europe/Amsterdam samples/medtronic-carelink/cgm_format_medtronics_test_livia_TRIMMED.csv
import loop-nightscout UTC samples/nightscout/nightscout_mongoexport_entries.json samples/nightscout/nightscout_treatments_loop.json
import tandem America/New_York samples/tandem/tconnect_therapy_timeline.csv
import tidepool UTC samples/tidepool/tidepool_export.json
import apple-health Europe/London samples/apple-health/healthkit-to-sqlite_export.zip
import health-log Europe/Rome samples/health-reports/health_log.json

# A patient's own log on the G6 week (the Clarity export carries only carbs and insulin): what the
# seed apps' forms write, typed with the CLI. Entries have ids, so running the demo again changes nothing.
log=(--db "$db" --subject clarity-g6 --timezone Europe/London)
"$bin" add meal "${log[@]}" --at "1961-04-25 07:40" --carbs 45 --protein 12 --fat 8 --name "Porridge with berries" >/dev/null
"$bin" add meal "${log[@]}" --at "1961-04-25 12:50" --carbs 52 --protein 28 --fat 14 --name "Chicken sandwich" >/dev/null
"$bin" add meal "${log[@]}" --at "1961-04-25 15:30" --carbs 15 --name "Apple" >/dev/null
"$bin" add meal "${log[@]}" --at "1961-04-25 18:35" --carbs 78 --protein 30 --fat 22 --name "Pasta bolognese" >/dev/null
"$bin" add exercise "${log[@]}" --at "1961-04-25 08:30" --minutes 45 --name cycling --intensity medium >/dev/null
"$bin" add exercise "${log[@]}" --at "1961-04-25 13:20" --minutes 30 --name walking --intensity light >/dev/null
"$bin" add exercise "${log[@]}" --at "1961-04-22 17:10" --minutes 45 --name running --intensity heavy >/dev/null
"$bin" add episode stress "${log[@]}" --start "1961-04-20 09:00" --end "1961-04-21 18:00" >/dev/null
"$bin" favourite add "${log[@]}" 1961-04-19 --note "steady day" >/dev/null
"$bin" favourite add "${log[@]}" 1961-04-25 --note "new breakfast" >/dev/null
# Toothbrushing (seed 003) on mornings and evenings of that April, replayed from a recorded IMU stream.
for d in 03 05 08 10 13 15 18 20 22 24 25; do
  "$bin" stream --replay samples/imu/brushing_stream_tms.csv --start "1961-04-${d}T07:30:00Z" --db "$db" --subject clarity-g6 \
    >/dev/null 2>&1 || [ $? -eq 3 ]
done

# One page per person with glucose, for the 14 days with the most readings.
richest() { # subject → "first last" day of the 14-day window with the most glucose readings
  sqlite3 "$db" "WITH d AS (SELECT day, n FROM daily_summaries WHERE subject = '$1' AND metric = 'glucose')
    SELECT date(a.day, '-13 days'), a.day FROM d a
    ORDER BY (SELECT sum(b.n) FROM d b WHERE b.day BETWEEN date(a.day, '-13 days') AND a.day) DESC, a.day DESC LIMIT 1" | tr '|' ' '
}
rows=""
for subject in $(sqlite3 "$db" "SELECT DISTINCT subject FROM daily_summaries WHERE metric = 'glucose' ORDER BY subject"); do
  read -r first last <<<"$(richest "$subject")"
  "$bin" page --db "$db" --subject "$subject" --from "$first" --to "$last" -o "$out/$subject.html" >/dev/null
  readings=$(sqlite3 "$db" "SELECT sum(n) FROM daily_summaries WHERE subject = '$subject' AND metric = 'glucose' AND day BETWEEN '$first' AND '$last'")
  rows+="<tr><td><a href=\"$subject.html\">$subject</a></td><td>$first – $last</td><td>$readings</td></tr>"
done
# People without glucose readings (a health log, Apple Health's daily metrics) get a page of what they logged.
for subject in $(sqlite3 "$db" "SELECT DISTINCT subject FROM measurements UNION SELECT subject FROM reports
  EXCEPT SELECT DISTINCT subject FROM daily_summaries WHERE metric = 'glucose' ORDER BY 1"); do
  "$bin" page --db "$db" --subject "$subject" -o "$out/$subject.html" 2>"$out/page.log" || { cat "$out/page.log" >&2; exit 1; }
  rows+="<tr><td><a href=\"$subject.html\">$subject</a></td><td>their last 14 days</td><td>none: what they logged</td></tr>"
done
cat >"$out/index.html.tmp" <<HTML
<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>HealthPipe demo</title><style>body{font:16px system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #e5e7eb}a{color:#0b5394}</style></head>
<body><h1>HealthPipe demo</h1><p>Each bundled sample imported as its own person into <code>health.sqlite</code>; each page shows
that person's 14 days with the most glucose readings (day view, AGP report, day table); a person without glucose
readings gets a page of what they logged (a health log's calendar and graphs, Apple Health's daily metrics).</p>
<table><tr><th>Person (sample)</th><th>Days on the page</th><th>Glucose readings</th></tr>$rows</table>
</body></html>
HTML
mv "$out/index.html.tmp" "$out/index.html"

echo
sqlite3 -header -column "$db" "SELECT subject, count(*) AS readings, date(min(start), 'unixepoch') AS first, date(max(start), 'unixepoch') AS last
  FROM measurements WHERE metric = 'glucose' GROUP BY subject"
echo
echo "open $(realpath "$out")/index.html in a browser: one self-contained page per person (their richest 14 days)"
