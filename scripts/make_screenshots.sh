#!/usr/bin/env bash
# Regenerates the screenshots in docs/images/ (shown in the README) with headless chromium, from
# exactly what the demo writes: scripts/demo.sh runs into a temporary folder (each bundled sample a
# person of its own, the G6 patient's meals, exercise, stress episode, favourites and toothbrushing
# logged with the CLI), and the pictures are that database's views and the G6 patient's page.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bin=${HEALTHPIPE_BIN:-}
if [ -z "$bin" ]; then swift build -c release --product healthpipe; bin=.build/release/healthpipe; fi
bin=$(realpath "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
HEALTHPIPE_BIN="$bin" DEMO_OUT="$work" scripts/demo.sh >/dev/null
db=$work/health.sqlite
who=(--subject clarity-g6)
mkdir -p docs/images
shot() { # svg-or-html, png, width, height
  chromium --headless --no-sandbox --hide-scrollbars --force-device-scale-factor=1 --window-size="$3,$4" \
    --screenshot="$2" "file://$1" >/dev/null 2>&1
}
"$bin" chart day --db "$db" "${who[@]}" --svg "$work/day.svg"
"$bin" chart agp --db "$db" "${who[@]}" --svg "$work/agp.svg"
"$bin" chart days --db "$db" "${who[@]}" --svg "$work/days.svg"
"$bin" chart history --db "$db" "${who[@]}" --period month --svg "$work/history.svg"
shot "$work/day.svg" docs/images/day.png 1000 440
shot "$work/agp.svg" docs/images/agp.png 800 1131
days_height=$(sed -n 's/.*height="\([0-9.]*\)" viewBox.*/\1/p' "$work/days.svg" | head -1)
shot "$work/days.svg" docs/images/days.png 800 "${days_height%.*}"
shot "$work/history.svg" docs/images/history.png 800 300
shot "$work/clarity-g6.html" docs/images/page.png 1200 900
# A phone (390 px) in a frame: headless chromium makes no window narrower than 500 px.
phone() { # page (in $work), png, height
  printf '<!doctype html><body style="margin:0;background:#d1d5db"><iframe src="%s" style="border:0;width:390px;height:%spx;margin-left:55px;background:#fff"></iframe>' \
    "$1" "$3" >"$work/phone.html"
  shot "$work/phone.html" "$2" 500 "$3"
}
phone clarity-g6.html docs/images/page-phone.png 1400
shot "$work/health-log.html" docs/images/health-log.png 1200 1000
shot "$work/index.html" docs/images/demo-index.png 900 420
echo "screenshots in docs/images/: $(ls docs/images | tr '\n' ' ')"
