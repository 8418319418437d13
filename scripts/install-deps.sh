#!/usr/bin/env bash
# Installs what building and testing tfcc needs on Debian 12 (run as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
# tfcc serve: libmicrohttpd-dev (HTTP), libjansson-dev (JSON), libyaml-dev (config), pkg-config;
# its tests and load scripts: curl, wrk, nginx (two replicas behind a load balancer).
# Encrypted models: libssl-dev (OpenSSL libcrypto, optional module libtfcc_crypto).
pkgs=(build-essential cmake ninja-build clang llvm python3 libjpeg62-turbo-dev libpng-dev
      pkg-config libmicrohttpd-dev libjansson-dev libyaml-dev curl wrk nginx libssl-dev
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
# (the aarch64 cross compiler and qemu run the NEON kernel tests: scripts/check-aarch64.sh)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
