#!/usr/bin/env bash
# Installs Debian's wrk (the benchmark load generator) when it is missing.
set -euo pipefail
command -v wrk >/dev/null && exit 0
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "wrk is missing and cannot be installed here (need root and apt-get)." >&2
  exit 1
fi
echo "[ensure-wrk] wrk (the benchmark load generator) is missing: installing Debian's wrk with apt-get (apt-get update, then apt-get install wrk)..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq wrk >/dev/null
echo "[ensure-wrk] installed $(command -v wrk)" >&2
