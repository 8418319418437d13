#!/bin/sh
# Compiler launcher of the WebAssembly builds (scripts/build-wasm.sh sets it): CMake runs
# "wasm-cc.sh emcc ARGS...". With TFCC_WASM_CLANG set (build-wasm.sh checked that it gives emcc's
# own object files), it runs that clang with the flags emcc would add (TFCC_WASM_CFLAGS, from
# `emcc --cflags`) and ARGS: the same objects without emcc's Python start-up, about a second of
# CPU a file and most of a wasm build's time. Otherwise, emcc itself. Through ccache where
# TFCC_WASM_CCACHE names it.
shift
if [ -n "${TFCC_WASM_CLANG:-}" ]; then
  # shellcheck disable=SC2086 # TFCC_WASM_CFLAGS is a list of flags
  exec ${TFCC_WASM_CCACHE:-} "$TFCC_WASM_CLANG" $TFCC_WASM_CFLAGS "$@"
fi
exec ${TFCC_WASM_CCACHE:-} emcc "$@"
