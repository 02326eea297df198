#!/usr/bin/env bash
# Installs the C libraries HealthPipe links (libcsv, libxml2, sqlite3, zlib for ZIPFoundation) and the tools its tests use,
# if they are missing. Safe to run repeatedly; needs root (or sudo) only when something is missing.
# chromium (and a font) render the HTML page headless in the browser tests and scripts/make_screenshots.sh.
# libpq-dev links the PostgreSQL sink; postgresql-15 gives the tests a real server (initdb, pg_ctl, psql);
# Java 17 and pyspark run examples/spark/cohort.py in its test, writing its tables over JDBC (libpostgresql-jdbc-java).
set -euo pipefail
packages=(libcsv-dev libxml2-dev libsqlite3-dev zlib1g-dev sqlite3 tzdata pkg-config chromium fonts-dejavu-core
          libpq-dev postgresql-15 openjdk-17-jre-headless libpostgresql-jdbc-java)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The FHIR export test validates against FHIR R4 with SMART's fhirclient models (generated from 4.0.1).
if ! python3 -c "import fhirclient.models.observation" 2>/dev/null; then
  for attempt in 1 2 3; do
    python3 -m pip install -q fhirclient==4.4.0 2>/dev/null || python3 -m pip install -q --break-system-packages fhirclient==4.4.0 && break
    sleep $((attempt * 10))
  done
fi
# ServeTests read the Nightscout API back with the PyPI clients people use (Tests/ServeTests/python/read_back.py).
if ! python3 -c "import py_nightscout, nightscout" 2>/dev/null; then
  for attempt in 1 2 3; do
    python3 -m pip install -q py-nightscout==1.3.3 python-nightscout==1.0.0 2>/dev/null \
      || python3 -m pip install -q --break-system-packages py-nightscout==1.3.3 python-nightscout==1.0.0 && break
    sleep $((attempt * 10))
  done
fi
if ! python3 -c "import pyspark" 2>/dev/null; then
  for attempt in 1 2 3; do
    python3 -m pip install -q pyspark 2>/dev/null || python3 -m pip install -q --break-system-packages pyspark && break
    sleep $((attempt * 10))
  done
fi
# The app's browser test (ServeTests/AppBrowserTests) drives Debian's chromium with Playwright for Python.
if ! python3 -c "import playwright" 2>/dev/null; then
  for attempt in 1 2 3; do
    python3 -m pip install -q playwright 2>/dev/null || python3 -m pip install -q --break-system-packages playwright && break
    sleep $((attempt * 10))
  done
fi
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${missing[*]}" >&2
for attempt in 1 2 3; do
  if $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq &&
     DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}"; then
    exit 0
  fi
  echo "apt-get failed (attempt $attempt); retrying" >&2
  sleep $((attempt * 10))
done
echo "could not install: ${missing[*]}" >&2
exit 1
