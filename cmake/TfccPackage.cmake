# Debian package: `cpack -G DEB` in a build directory -> tfcc_<version>_<arch>.deb holding what
# `cmake --install` installs, under /usr. Its Depends are computed by dpkg-shlibdeps from the
# binaries (libc6, libjpeg62-turbo, libpng16-16, libmicrohttpd12, libjansson4, libyaml-0-2,
# libssl3), so `apt install ./tfcc_*.deb` on Debian 12 pulls them in. Needs dpkg-dev and file.
set(CPACK_PACKAGE_NAME tfcc)
set(CPACK_PACKAGE_VENDOR "tfcc")
set(CPACK_PACKAGE_CONTACT "tfcc maintainers <tfcc@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "TensorFlow Lite inference engine in C: library, headers and the tfcc command")
set(CPACK_PACKAGE_DESCRIPTION "tfcc loads .tflite models, checks the whole file, and runs them on the CPU
with AVX-512 / AVX2 / SSE4.1 / NEON kernels chosen at run time. This package holds libtfcc
(shared and static), its header, pkg-config and CMake files, and the tfcc command (run,
inspect, classify, bench, cpu-info, serve: an HTTP server speaking KServe v2 and TF Serving
REST) with man pages and bash completion.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pkg-config, cmake")
set(CPACK_SOURCE_GENERATOR "")
include(CPack)
