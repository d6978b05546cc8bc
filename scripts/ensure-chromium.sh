#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing (no browser download from elsewhere).
set -euo pipefail
if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "Chromium is missing and cannot be installed here (need root and apt-get); set CHROMIUM_PATH." >&2
  exit 1
fi
echo "[ensure-chromium] installing Debian's chromium package..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
