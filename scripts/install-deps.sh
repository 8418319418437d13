#!/usr/bin/env bash
# Installs what building and testing tfcc needs on Debian 12 (run as root). When another apt or
# dpkg process holds the package lock (unattended-upgrades at boot, another shell), it waits for
# it, up to TFCC_APT_WAIT seconds (default 600), instead of failing at once.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
# tfcc serve: libmicrohttpd-dev (HTTP), libjansson-dev (JSON), libyaml-dev (config), pkg-config;
# its tests and load scripts: curl, wrk, nginx (two replicas behind a load balancer).
# Encrypted models: libssl-dev (OpenSSL libcrypto, optional module libtfcc_crypto).
# Packaging (cpack -G DEB, tests/install): dpkg-dev (dpkg-shlibdeps), file.
# Python package (python/): python3-dev, python3-numpy, python3-pytest.
pkgs=(build-essential cmake ninja-build clang llvm python3 libjpeg62-turbo-dev libpng-dev
      pkg-config libmicrohttpd-dev libjansson-dev libyaml-dev curl wrk nginx libssl-dev
      dpkg-dev file python3-dev python3-numpy python3-pytest
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user clang-format ccache)
# (the aarch64 cross compiler and qemu run the NEON kernel tests: scripts/check-aarch64.sh;
# ccache: scripts/build-wasm.sh compiles the library twice, the relaxed-SIMD binary differing
# in four files, and takes the other objects from the first build through ccache)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

wait_s=${TFCC_APT_WAIT:-600}
deadline=$((SECONDS + wait_s))
# apt_locked CMD...: runs CMD; while it fails because another process holds an apt/dpkg lock,
# waits and tries again until the deadline. Other failures end at once.
apt_locked() {
  local err rc said=0
  err=$(mktemp)
  while :; do
    rc=0
    "$@" 2>"$err" || rc=$?
    cat "$err" >&2
    if [ $rc -eq 0 ]; then rm -f "$err"; return 0; fi
    if ! grep -qiE 'could not get lock|unable to acquire the dpkg frontend lock|unable to lock' "$err" ||
       [ $SECONDS -ge $deadline ]; then
      [ $SECONDS -lt $deadline ] || echo "install-deps: the apt lock was still held after ${wait_s}s (TFCC_APT_WAIT)" >&2
      rm -f "$err"
      return $rc
    fi
    [ $said -eq 1 ] || echo "install-deps: another apt/dpkg process holds the lock; waiting (up to ${wait_s}s)" >&2
    said=1
    sleep 5
  done
}
# apt >= 1.9.11 also waits by itself for the dpkg lock during install
lock_opt=(-o "DPkg::Lock::Timeout=$wait_s")
echo "install-deps: installing ${missing[*]}"
apt_locked apt-get update -qq "${lock_opt[@]}"
apt_locked apt-get install -y -qq --no-install-recommends "${lock_opt[@]}" "${missing[@]}" >/dev/null
