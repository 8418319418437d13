#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` from this build, checked without touching the machine:
# its control fields (runtime Depends from dpkg-shlibdeps), its files unpacked into a scratch
# root (dpkg -x), the command run from there and the README's C example built against it.
# With TFCC_TEST_DEB_APT=1, as root, it is also installed on the machine with
# `apt-get install ./tfcc_*.deb` (dependencies resolved by apt), used, and removed again.
source "$(dirname "$0")/lib_install.bash"
for t in cpack dpkg-deb dpkg-shlibdeps pkg-config file; do
  command -v $t >/dev/null || { echo "SKIP: $t not installed (scripts/install-deps.sh)"; exit 77; }
done
expect_rc 0 "cpack -G DEB" -- cpack -G DEB -B "$TMP/pkg" --config "$TFCC_BINARY_DIR/CPackConfig.cmake"
deb=$(ls "$TMP"/pkg/tfcc_*.deb 2>/dev/null | head -1)
[ -f "$deb" ] && ok || { bad "no tfcc_*.deb made: $(tail -c 600 "$TMP/out" "$TMP/err")"; finish; }
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

dpkg-deb -f "$deb" Package Version Architecture Depends >"$TMP/control"
cat "$TMP/control"
expect_in "$TMP/control" "Package: tfcc" "package name"
for d in libc6 libjpeg62-turbo libpng16-16 libmicrohttpd12 libjansson4 libyaml-0-2; do
  expect_in "$TMP/control" "$d" "Depends names $d"
done
if grep -q '^Depends:.*libtfcc' "$TMP/control"; then bad "Depends on its own library"; else ok; fi
dpkg-deb -c "$deb" >"$TMP/contents"
for f in ./usr/bin/tfcc ./usr/bin/tfcc-serve ./usr/include/tfcc/tfcc.h "libtfcc.so.0 ->" pkgconfig/tfcc.pc cmake/tfcc/tfccConfig.cmake \
         ./usr/share/man/man1/tfcc.1 ./usr/share/man/man1/tfcc-serve.1 ./usr/share/bash-completion/completions/tfcc; do
  expect_in "$TMP/contents" "$f" "package holds $f"
done
# the library is registered with ldconfig on install and removal
dpkg-deb -e "$deb" "$TMP/ctl"
if grep -qs ldconfig "$TMP/ctl/postinst" && grep -qs ldconfig "$TMP/ctl/postrm"; then ok; else bad "postinst/postrm do not run ldconfig"; fi
expect_in "$TMP/ctl/shlibs" "libtfcc 0 tfcc" "shlibs entry for libtfcc.so.0"

# unpacked into a scratch root
R=$TMP/root
expect_rc 0 "dpkg -x" -- dpkg -x "$deb" "$R"
expect_rc 0 "unpacked tfcc --version" -- "$R/usr/bin/tfcc" --version
expect_in "$TMP/out" "tfcc 0." "version line"
expect_rc 0 "unpacked tfcc serve --help (runs tfcc-serve)" -- "$R/usr/bin/tfcc" serve --help
expect_in "$TMP/out" "usage: tfcc serve" "tfcc serve's usage through tfcc-serve"
pc=$(find "$R" -name tfcc.pc | head -1)
lib=$(dirname "$(dirname "$pc")")
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs tfcc)
expect_rc 0 "cc against the unpacked package" -- cc -std=c11 -Wall -Wextra -Werror "$EXAMPLE" $flags -Wl,-rpath,"$lib" -o "$TMP/ex"
model=$(example_model)
[ -z "$model" ] || check_example "unpacked package" "$TMP/ex" "$model"

# installed on this machine with apt, then removed (opt-in: it changes the machine)
if [ "${TFCC_TEST_DEB_APT:-0}" = 1 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    skip_part "TFCC_TEST_DEB_APT=1 needs root and apt-get"
  elif dpkg-query -W -f='${Status}' tfcc 2>/dev/null | grep -q "install ok installed"; then
    skip_part "a tfcc package is already installed here: not replaced"
  else
    cp "$deb" "$TMP/tfcc.deb" && chmod 644 "$TMP/tfcc.deb" && chmod 755 "$TMP"
    expect_rc 0 "apt-get install ./tfcc.deb" -- env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$TMP/tfcc.deb"
    expect_rc 0 "installed /usr/bin/tfcc --version" -- /usr/bin/tfcc --version
    expect_rc 0 "pkg-config tfcc (system)" -- pkg-config --exists tfcc
    expect_rc 0 "cc -ltfcc against /usr" -- cc -std=c11 "$EXAMPLE" -ltfcc -o "$TMP/ex_sys"
    [ -z "$model" ] || check_example "apt-installed package" "$TMP/ex_sys" "$model"
    expect_rc 0 "apt-get remove tfcc" -- env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q tfcc
    [ ! -e /usr/bin/tfcc ] && ok || bad "/usr/bin/tfcc left after removal"
  fi
fi
finish
