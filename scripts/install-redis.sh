#!/usr/bin/env bash
# Installs redis-server and redis-cli from Debian's packages when missing: the @toolware/redis
# tests start their own throwaway servers (and a three-master cluster) on loopback ports.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq redis-server redis-tools >/dev/null
# The package may start a system service; the tests use their own servers and ports.
if command -v service >/dev/null 2>&1; then service redis-server stop >/dev/null 2>&1 || true; fi
redis-server --version
