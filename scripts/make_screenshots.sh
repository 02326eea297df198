#!/usr/bin/env bash
# Regenerates the screenshots in docs/images/ (shown in the README) with headless chromium.
# Data: the real Dexcom Clarity sample (samples/dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv,
# 14 days of G6 readings with fast- and long-acting insulin), plus a meal/exercise diary, favourites and a
# stress episode written into the store as an app logging them would (Clarity exports carry carbs only),
# and toothbrushing sessions replayed from samples/imu/brushing_stream_tms.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bin=${HEALTHPIPE_BIN:-}
if [ -z "$bin" ]; then swift build -c release --product healthpipe; bin=.build/release/healthpipe; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/demo.sqlite
"$bin" import samples/dexcom-clarity/cgm_format_Clarity_Export_synthetic.csv --db "$db" --timezone Europe/London --subject demo >/dev/null
# 1961-04: British Summer Time, UTC+01:00.
sqlite3 "$db" <<'SQL'
INSERT INTO events (subject, kind, subtype, source, start, amount, "end", utc_offset, carbs_g, protein_g, fat_g, intensity, note) VALUES
 ('demo','meal','','diary',strftime('%s','1961-04-25 07:40')-3600,45,strftime('%s','1961-04-25 07:40')-3600,3600,45,12,8,NULL,'Porridge with berries'),
 ('demo','meal','','diary',strftime('%s','1961-04-25 12:50')-3600,52,strftime('%s','1961-04-25 12:50')-3600,3600,52,28,14,NULL,'Chicken sandwich'),
 ('demo','meal','','diary',strftime('%s','1961-04-25 15:30')-3600,15,strftime('%s','1961-04-25 15:30')-3600,3600,15,1,0,NULL,'Apple'),
 ('demo','meal','','diary',strftime('%s','1961-04-25 18:35')-3600,78,strftime('%s','1961-04-25 18:35')-3600,3600,78,30,22,NULL,'Pasta bolognese'),
 ('demo','exercise','cycling','diary',strftime('%s','1961-04-25 08:30')-3600,0,strftime('%s','1961-04-25 09:15')-3600,3600,NULL,NULL,NULL,'medium',NULL),
 ('demo','exercise','walking','diary',strftime('%s','1961-04-25 13:20')-3600,0,strftime('%s','1961-04-25 13:50')-3600,3600,NULL,NULL,NULL,'light',NULL),
 ('demo','exercise','running','diary',strftime('%s','1961-04-22 17:10')-3600,0,strftime('%s','1961-04-22 17:55')-3600,3600,NULL,NULL,NULL,'heavy',NULL),
 ('demo','episode','stress','diary',strftime('%s','1961-04-20 09:00')-3600,0,strftime('%s','1961-04-21 18:00')-3600,3600,NULL,NULL,NULL,NULL,NULL);
INSERT INTO favourites (subject, day, note, created_at) VALUES ('demo','1961-04-19','steady day',0), ('demo','1961-04-25','new breakfast',0);
SQL
# Re-aggregate so the day table sees the diary's exercise and the stress episode (daily summaries are derived).
"$bin" reaggregate --db "$db" >/dev/null
# Brushing most mornings and evenings of April (each replay holds two sessions; the capture's two bad
# lines are quarantined, exit code 3).
for d in 03 04 05 07 08 09 10 12 13 14 15 16 18 19 20 21 22 24 25; do
  "$bin" stream --replay samples/imu/brushing_stream_tms.csv --start "1961-04-${d}T07:30:00Z" --db "$db" --subject demo >/dev/null 2>&1 || [ $? -eq 3 ]
  case $d in 05|09|14|20|25) ;; *) "$bin" stream --replay samples/imu/brushing_stream_tms.csv --start "1961-04-${d}T21:10:00Z" --db "$db" --subject demo >/dev/null 2>&1 || [ $? -eq 3 ];; esac
done

mkdir -p docs/images
shot() { # svg-or-html, png, width, height
  chromium --headless --no-sandbox --hide-scrollbars --force-device-scale-factor=1 --window-size="$3,$4" \
    --screenshot="$2" "file://$1" >/dev/null 2>&1
}
"$bin" chart day --db "$db" --svg "$work/day.svg"
"$bin" chart agp --db "$db" --svg "$work/agp.svg"
"$bin" chart days --db "$db" --svg "$work/days.svg"
"$bin" chart history --db "$db" --subject demo --period month --svg "$work/history.svg"
"$bin" page --db "$db" -o "$work/health.html"
shot "$work/day.svg" docs/images/day.png 1000 440
shot "$work/agp.svg" docs/images/agp.png 800 1131
days_height=$(sed -n 's/.*height="\([0-9.]*\)" viewBox.*/\1/p' "$work/days.svg" | head -1)
shot "$work/days.svg" docs/images/days.png 800 "${days_height%.*}"
shot "$work/history.svg" docs/images/history.png 800 300
shot "$work/health.html" docs/images/page.png 1200 900
echo "screenshots in docs/images/: $(ls docs/images | tr '\n' ' ')"
