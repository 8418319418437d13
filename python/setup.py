"""Builds the tfcc extension for pip (`pip install ./python`).

The C library is built first with CMake from the source tree this directory belongs to (only
the static library: no tools, tests or benchmarks), the same way the top-level CMake build
makes it, so that every kernel gets its per-ISA compiler flags; then the extension
(python/src/*.c and the `tfcc bench` pieces of tools/common) is compiled by setuptools and
linked with it. Nothing is downloaded.

Environment:
  TFCC_SOURCE_DIR   the tfcc source tree (default: this directory's parent)
  TFCC_CMAKE        the cmake command (default: cmake)
  TFCC_CMAKE_ARGS   extra configure arguments, e.g. "-DTFCC_WITH_CRYPTO=OFF"
"""
import os
import shlex
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.environ.get("TFCC_SOURCE_DIR", os.path.join(HERE, "..")))
TOOL_SOURCES = ["bench_inputs.c", "bench_report.c", "cpulist.c", "json.c", "npy.c", "stats.c"]


def _check_root():
    if not os.path.isfile(os.path.join(ROOT, "include", "tfcc", "tfcc.h")):
        sys.exit("tfcc: the source tree was not found at %s (pip copied python/ away from it?): "
                 "set TFCC_SOURCE_DIR to the tfcc checkout" % ROOT)


def _has_openssl(compiler):
    try:
        return compiler.has_function("EVP_aes_256_gcm", includes=["openssl/evp.h"],
                                     libraries=["crypto"])
    except Exception:  # noqa: BLE001 - any failure means "no"
        return False


class BuildExt(build_ext):
    def build_extension(self, ext):
        _check_root()
        lib_build = os.path.join(os.path.abspath(self.build_temp), "tfcc-lib")
        cmake = os.environ.get("TFCC_CMAKE", "cmake")
        configure = [cmake, "-S", ROOT, "-B", lib_build, "-DCMAKE_BUILD_TYPE=Release",
                     "-DTFCC_BUILD_TOOLS=OFF", "-DTFCC_BUILD_TESTS=OFF",
                     "-DTFCC_BUILD_BENCH=OFF", "-DTFCC_PYTHON=OFF", "-DTFCC_WITH_CRYPTO=OFF"]
        configure += shlex.split(os.environ.get("TFCC_CMAKE_ARGS", ""))
        subprocess.check_call(configure)
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call([cmake, "--build", lib_build, "--target", "tfcc_static",
                               "--parallel", jobs])
        ext.extra_objects.append(os.path.join(lib_build, "libtfcc.a"))
        # sources outside this directory join here, after setup()'s relative-path check
        ext.sources += [os.path.join(ROOT, "tools", "common", f) for f in TOOL_SOURCES]
        ext.sources.append(os.path.join(ROOT, "tools", "plugin", "plugin_load.c"))  # custom_op_libraries
        # encrypted models: src/crypto compiled in when OpenSSL's libcrypto is there
        crypto_dir = os.path.join(ROOT, "src", "crypto")
        if os.environ.get("TFCC_PYTHON_CRYPTO", "1") != "0" and _has_openssl(self.compiler):
            ext.sources += sorted(os.path.join(crypto_dir, f) for f in os.listdir(crypto_dir)
                                  if f.endswith(".c"))
            ext.libraries.append("crypto")
            ext.define_macros.append(("TFCC_WITH_CRYPTO", "1"))
        super().build_extension(ext)


def _extension():
    import numpy

    src = [os.path.join("src", f) for f in sorted(os.listdir(os.path.join(HERE, "src")))
           if f.endswith(".c")]
    return Extension(
        "tfcc._tfcc",
        sources=src,
        include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src"),
                      os.path.join(ROOT, "tools"), os.path.join(ROOT, "tools", "plugin"), numpy.get_include()],
        define_macros=[("_GNU_SOURCE", None)],
        extra_compile_args=["-std=c11", "-fvisibility=hidden", "-fno-strict-aliasing"],
        extra_link_args=["-Wl,--exclude-libs,ALL", "-lpthread", "-lm", "-ldl"],
        libraries=[],
    )


setup(ext_modules=[_extension()], cmdclass={"build_ext": BuildExt})
