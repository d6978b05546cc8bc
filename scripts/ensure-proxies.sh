#!/usr/bin/env bash
# Installs Debian's nginx, caddy and haproxy (the reverse proxies docs/deploy.md configures and test/edge/ runs in front
# of the server) when they are missing. Every one comes from Debian's archive (bookworm ships caddy 2.6), so nothing is
# downloaded from elsewhere. The packages would start system services on port 80: a policy-rc.d that refuses every
# service start is in place while they install (the one already there is kept), and the tests run each proxy as a
# foreground child on a free loopback port with a config written to a temp dir.
# Without root or apt-get it prints what is missing and exits 0: the proxy tests then skip, saying so.
set -euo pipefail
missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v caddy >/dev/null || [ -x /usr/bin/caddy ] || missing+=(caddy)
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
  echo "[ensure-proxies] missing: ${missing[*]}; cannot install here (need root and apt-get): the tests in test/edge/ for them skip." >&2
  exit 0
fi
echo "[ensure-proxies] installing Debian's ${missing[*]} with apt-get (apt-get update, then apt-get install; no service started)..." >&2
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# written by scripts/ensure-proxies.sh while it installs: start no service\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  made_policy=1
fi
cleanup() { if [ "$made_policy" = 1 ]; then rm -f "$policy"; fi; }
trap cleanup EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# under systemd the packages enable their services: stop (if one started anyway) and disable the ones installed here,
# so port 80 stays free now and after a reboot
if [ -d /run/systemd/system ]; then
  for svc in "${missing[@]}"; do
    systemctl stop "$svc" 2>/dev/null || true
    systemctl disable --quiet "$svc" 2>/dev/null || true
  done
fi
echo "[ensure-proxies] installed: $(for p in "${missing[@]}"; do command -v "$p" || echo "/usr/sbin/$p"; done | tr '\n' ' ')" >&2
