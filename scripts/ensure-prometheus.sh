#!/usr/bin/env bash
# Installs Debian's prometheus (the server and promtool, for the alert-rule and scrape tests) when it is missing.
set -euo pipefail
command -v promtool >/dev/null && command -v prometheus >/dev/null && exit 0
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "prometheus/promtool are missing and cannot be installed here (need root and apt-get); the alert-rule and scrape tests skip." >&2
  exit 0
fi
echo "[ensure-prometheus] prometheus is missing: installing Debian's prometheus with apt-get (apt-get update, then apt-get install --no-install-recommends prometheus)..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# The package's service is never started here (policy-rc.d 101): the tests run their own Prometheus on a free port.
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d.ensure-prometheus
chmod +x /usr/sbin/policy-rc.d.ensure-prometheus
had_policy=0
[ -e /usr/sbin/policy-rc.d ] && had_policy=1
[ "$had_policy" = 0 ] && cp /usr/sbin/policy-rc.d.ensure-prometheus /usr/sbin/policy-rc.d
apt-get install -y -qq --no-install-recommends prometheus >/dev/null || { [ "$had_policy" = 0 ] && rm -f /usr/sbin/policy-rc.d; rm -f /usr/sbin/policy-rc.d.ensure-prometheus; exit 1; }
[ "$had_policy" = 0 ] && rm -f /usr/sbin/policy-rc.d
rm -f /usr/sbin/policy-rc.d.ensure-prometheus
echo "[ensure-prometheus] installed $(command -v prometheus) and $(command -v promtool)" >&2
