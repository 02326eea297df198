#!/usr/bin/env bash
# A release build of healthpipe to ship to cluster nodes (Spark executors via --files/--archives, Slurm,
# Kubernetes): the Swift runtime and Foundation linked in (--static-swift-stdlib), so nodes need no Swift
# toolchain. The C libraries stay shared; a node needs their runtime packages, which the script lists
# (Debian 12: libcsv3 libxml2 libsqlite3-0 libpq5 zlib1g). Writes dist/healthpipe and
# dist/healthpipe-<os>-<arch>.tar.gz (the binary and the bundled YAML adapters, for --plugin-path).
#
#   scripts/build-static.sh            # then: spark-submit --files dist/healthpipe … or --archives dist/….tar.gz#hp
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product healthpipe --static-swift-stdlib
mkdir -p dist
cp .build/release/healthpipe dist/healthpipe
strip dist/healthpipe 2>/dev/null || true
name="healthpipe-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)"
rm -rf "dist/$name" && mkdir -p "dist/$name"
cp dist/healthpipe "dist/$name/healthpipe"
cp -R plugins/adapters "dist/$name/adapters"
tar -C dist -czf "dist/$name.tar.gz" "$name"
rm -rf "dist/$name"
echo "dist/healthpipe ($(du -h dist/healthpipe | cut -f1)) and dist/$name.tar.gz" >&2
echo "shared libraries a node needs:" >&2
ldd dist/healthpipe | awk '/=>/ { print "  " $1 }' | grep -vE 'lib(c|m|dl|pthread|rt|gcc_s|stdc\+\+)\.so|ld-linux' >&2 || true
if ldd dist/healthpipe | grep -q libswift; then
  echo "error: the binary still links the Swift runtime dynamically" >&2
  exit 1
fi
