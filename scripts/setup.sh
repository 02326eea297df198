#!/usr/bin/env bash
# Installs what HealthPipe needs, if it is missing. Safe to run repeatedly; needs root (or sudo) only when
# something is missing.
#
#   scripts/setup.sh demo   what the product builds and runs with: the C libraries it links (libcsv, libxml2,
#                           sqlite3, zlib, libpq, libcrypto) and the sqlite3 shell the
#                           demo queries. This is all scripts/demo.sh installs.
#   scripts/setup.sh        the above and what the tests use (scripts/test.sh, CI):
#     chromium (and a font) render the HTML page and the app headless in the browser tests and
#     scripts/make_screenshots.sh; postgresql-15 gives the tests a real server (initdb, pg_ctl, psql);
#     Java 17 and pyspark run examples/spark/cohort.py in its test, writing its tables over JDBC
#     (libpostgresql-jdbc-java); fhirclient validates the FHIR export; the PyPI Nightscout clients read the API
#     back; Playwright drives chromium in the app's browser test.
set -euo pipefail
mode=${1:-test}
# The demo's libraries need none of their Recommends (compilers, docs); the test tools keep theirs (chromium, Java).
recommends=()
[ "$mode" = demo ] && recommends=(--no-install-recommends)
packages=(libcsv-dev libxml2-dev libsqlite3-dev zlib1g-dev libpq-dev libssl-dev pkg-config sqlite3 tzdata)
python_modules=()
if [ "$mode" != demo ]; then
  packages+=(chromium fonts-dejavu-core postgresql-15 openjdk-17-jre-headless libpostgresql-jdbc-java)
  # module to import → pip requirement(s)
  python_modules=("fhirclient.models.observation|fhirclient==4.4.0"
                  "py_nightscout, nightscout|py-nightscout==1.3.3 python-nightscout==1.0.0"
                  "pyspark|pyspark"
                  "playwright|playwright")
fi
for entry in "${python_modules[@]}"; do
  module=${entry%%|*} requirements=${entry#*|}
  python3 -c "import $module" 2>/dev/null && continue
  for attempt in 1 2 3; do
    # shellcheck disable=SC2086
    python3 -m pip install -q $requirements 2>/dev/null || python3 -m pip install -q --break-system-packages $requirements && break
    sleep $((attempt * 10))
  done
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${missing[*]}" >&2
for attempt in 1 2 3; do
  if $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq &&
     DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${recommends[@]}" "${missing[@]}"; then
    exit 0
  fi
  echo "apt-get failed (attempt $attempt); retrying" >&2
  sleep $((attempt * 10))
done
echo "could not install: ${missing[*]}" >&2
exit 1
