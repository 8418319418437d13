#!/usr/bin/env bash
# `cmake --install` into a scratch prefix, then the README's C example (examples/c_api/main.c)
# built against it through pkg-config and through find_package(tfcc), and run.
source "$(dirname "$0")/lib_install.bash"
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config not installed"; exit 77; }
P=$TMP/prefix
expect_rc 0 "cmake --install" -- cmake --install "$TFCC_BINARY_DIR" --prefix "$P"
lib=$(dirname "$(find "$P" -name 'libtfcc.so.0*' -type f | head -1)")
[ -n "$lib" ] && [ -d "$lib" ] && ok || bad "no libtfcc.so.0.* installed"

# what is installed
for f in "$P/bin/tfcc" "$P/bin/tfcc-serve" "$P/include/tfcc/tfcc.h" "$lib/libtfcc.a" "$lib/libtfcc.so" "$lib/pkgconfig/tfcc.pc" \
         "$lib/cmake/tfcc/tfccConfig.cmake" "$lib/cmake/tfcc/tfccConfigVersion.cmake" \
         "$P/share/bash-completion/completions/tfcc" "$P/share/man/man1/tfcc.1" "$P/share/man/man1/tfcc-run.1" \
         "$P/share/man/man1/tfcc-serve.1"; do
  [ -e "$f" ] && ok || bad "not installed: ${f#$P/}"
done
if readelf -d "$lib/libtfcc.so" 2>/dev/null | grep -q 'Library soname: \[libtfcc.so.0\]'; then ok
else bad "libtfcc.so has no SONAME libtfcc.so.0: $(readelf -d "$lib/libtfcc.so" 2>&1 | grep -i soname)"; fi
# the shared library exports the public API only
exports() { readelf --dyn-syms -W "$1" | awk '$5 == "GLOBAL" && $7 != "UND" && $4 != "NOTYPE" {print $8}'; }
if exports "$lib/libtfcc.so" | grep -v '^tfcc_' | grep -q .; then
  bad "libtfcc.so exports symbols outside tfcc_*: $(exports "$lib/libtfcc.so" | grep -v '^tfcc_' | head -5 | tr '\n' ' ')"
else ok; fi
for c in $(sed -n 's/^ *{"\([a-z-]*\)", cmd_.*/\1/p' "$TFCC_SOURCE_DIR/tools/main.c"); do
  if head -1 "$P/share/man/man1/tfcc-$c.1" 2>/dev/null | grep -q '^\.TH TFCC-'; then ok; else bad "man page tfcc-$c.1"; fi
done
# the installed command runs from the prefix (RUNPATH $ORIGIN/../lib), moved or not
expect_rc 0 "installed tfcc --version" -- env -u LD_LIBRARY_PATH "$P/bin/tfcc" --version
expect_in "$TMP/out" "tfcc 0." "version line"
mv "$P" "$TMP/moved" && P=$TMP/moved && lib=${lib/$TMP\/prefix/$TMP/moved}
expect_rc 0 "moved prefix: tfcc --version" -- "$P/bin/tfcc" --version
# tfcc serve runs the tfcc-serve installed next to tfcc
expect_rc 0 "moved prefix: tfcc serve --help" -- "$P/bin/tfcc" serve --help
expect_in "$TMP/out" "usage: tfcc serve" "tfcc serve's usage through tfcc-serve"
# tfcc encrypt / decrypt open the installed libtfcc_crypto (dlopen through tfcc's RUNPATH)
if [ -e "$lib/libtfcc_crypto.so.0" ]; then
  head -c 32 /dev/urandom >"$TMP/key.bin"
  expect_rc 0 "moved prefix: tfcc encrypt" -- env -u LD_LIBRARY_PATH "$P/bin/tfcc" encrypt "$(example_model)" \
    -o "$TMP/m.tfcce" --key-file "$TMP/key.bin"
  expect_rc 0 "moved prefix: tfcc decrypt" -- env -u LD_LIBRARY_PATH "$P/bin/tfcc" decrypt "$TMP/m.tfcce" \
    -o "$TMP/m.dec" --key-file "$TMP/key.bin"
  cmp -s "$(example_model)" "$TMP/m.dec" && ok || bad "decrypted model differs from the original"
fi
# bash completion: the command list comes from tfcc --help
if bash -c 'source "$1"; COMP_WORDS=("$2" ""); COMP_CWORD=1; _tfcc; printf "%s\n" "${COMPREPLY[@]}"' _ \
     "$P/share/bash-completion/completions/tfcc" "$P/bin/tfcc" | grep -qx serve; then ok; else bad "bash completion of the commands"; fi
if bash -c 'source "$1"; COMP_WORDS=("$2" run --thr); COMP_CWORD=2; _tfcc; printf "%s\n" "${COMPREPLY[@]}"' _ \
     "$P/share/bash-completion/completions/tfcc" "$P/bin/tfcc" | grep -qx -- --threads; then ok; else bad "bash completion of run's options"; fi

# the README shows examples/c_api/main.c as it is
if awk '/^## The C API/{on=1} on && /^```c$/{grab=1; next} grab && /^```$/{exit} grab' "$TFCC_SOURCE_DIR/README.md" |
   cmp -s - "$EXAMPLE"; then ok; else bad "README's C example differs from examples/c_api/main.c"; fi

model=$(example_model)
# 1. pkg-config (the .pc finds its prefix from its own place: no editing after the move)
export PKG_CONFIG_PATH=$lib/pkgconfig
expect_rc 0 "pkg-config --modversion" -- pkg-config --modversion tfcc
flags=$(pkg-config --cflags --libs tfcc)
expect_rc 0 "cc with pkg-config" -- cc -std=c11 -Wall -Wextra -Werror "$EXAMPLE" $flags -Wl,-rpath,"$lib" -o "$TMP/ex_pc"
# 2. find_package(tfcc)
expect_rc 0 "find_package configure" -- cmake -S "$TFCC_SOURCE_DIR/tests/install/consumer" -B "$TMP/consumer" \
  -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release
expect_rc 0 "find_package build" -- cmake --build "$TMP/consumer"
if [ -n "$model" ]; then
  check_example "pkg-config build" "$TMP/ex_pc" "$model"
  check_example "find_package build" "$TMP/consumer/c_api_example" "$model"
  check_example "find_package static build" "$TMP/consumer/c_api_example_static" "$model"
else
  skip_part "no model for the example (../shared absent and python3 missing)"
fi
finish
