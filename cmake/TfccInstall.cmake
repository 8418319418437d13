# Install rules (included from the top-level CMakeLists.txt).
#   lib/libtfcc.so.0 (SONAME libtfcc.so.0), libtfcc.a, libtfcc_crypto.so.0 (with OpenSSL)
#   include/tfcc/tfcc.h, tfcc_plugin.h (+ tfcc_crypto.h)
#   bin/tfcc (RUNPATH $ORIGIN/../lib: the tree can be moved)
#   lib/pkgconfig/tfcc.pc (+ tfcc_crypto.pc), relocatable (${pcfiledir})
#   lib/cmake/tfcc/: find_package(tfcc) -> tfcc::tfcc (shared), tfcc::tfcc_static, tfcc::crypto
#   share/man/man1/tfcc.1, tfcc-<command>.1 (made from the commands' --help: cmake/TfccMan.cmake)
#   share/bash-completion/completions/tfcc
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TFCC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tfcc CACHE STRING "Where find_package(tfcc)'s files go (relative to the prefix)")
mark_as_advanced(TFCC_INSTALL_CMAKEDIR)

set_target_properties(tfcc_shared PROPERTIES EXPORT_NAME tfcc)
set_target_properties(tfcc_static PROPERTIES EXPORT_NAME tfcc_static)
target_include_directories(tfcc_shared INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_include_directories(tfcc_static INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set(TFCC_INSTALL_TARGETS tfcc_shared tfcc_static)
set(TFCC_INSTALL_HEADERS ${CMAKE_SOURCE_DIR}/include/tfcc/tfcc.h ${CMAKE_SOURCE_DIR}/include/tfcc/tfcc_plugin.h)
if(TARGET tfcc_crypto)
  set_target_properties(tfcc_crypto PROPERTIES EXPORT_NAME crypto)
  target_include_directories(tfcc_crypto INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  list(APPEND TFCC_INSTALL_TARGETS tfcc_crypto)
  list(APPEND TFCC_INSTALL_HEADERS ${CMAKE_SOURCE_DIR}/include/tfcc/tfcc_crypto.h)
endif()

install(TARGETS ${TFCC_INSTALL_TARGETS} EXPORT tfccTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${TFCC_INSTALL_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tfcc)
# libtfcc_cuda (docs/cuda.md): beside libtfcc, which opens it with dlopen for device "cuda"; not
# a library to link against, so not among the exported targets. Its own component, installed on
# request (cmake --install BUILD --component cuda): it needs the CUDA toolkit's cuBLAS, which no
# Debian package of this distribution provides, so the .deb leaves it out.
if(TARGET tfcc_cuda)
  install(TARGETS tfcc_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cuda
          EXCLUDE_FROM_ALL)
endif()

# find_package(tfcc): relocatable config, same-major-version compatibility (0.x: same minor).
install(EXPORT tfccTargets NAMESPACE tfcc:: DESTINATION ${TFCC_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tfccConfig.cmake.in
  ${CMAKE_BINARY_DIR}/tfccConfig.cmake INSTALL_DESTINATION ${TFCC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/tfccConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/tfccConfig.cmake ${CMAKE_BINARY_DIR}/tfccConfigVersion.cmake
        DESTINATION ${TFCC_INSTALL_CMAKEDIR})

# pkg-config: prefix found from the .pc file's own place, so any --prefix (and the Debian
# package's /usr) works without regenerating it.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(TFCC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH TFCC_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  set(TFCC_PC_PREFIX "\${pcfiledir}/${TFCC_PC_UP}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/tfcc.pc.in ${CMAKE_BINARY_DIR}/tfcc.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/tfcc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET tfcc_crypto)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/tfcc_crypto.pc.in ${CMAKE_BINARY_DIR}/tfcc_crypto.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/tfcc_crypto.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# The tfcc command, its man pages and bash completion.
if(TARGET tfcc)
  file(RELATIVE_PATH TFCC_BIN_TO_LIB "/p/${CMAKE_INSTALL_BINDIR}" "/p/${CMAKE_INSTALL_LIBDIR}")
  set_target_properties(tfcc tfcc-serve PROPERTIES INSTALL_RPATH "$ORIGIN/${TFCC_BIN_TO_LIB}")
  install(TARGETS tfcc tfcc-serve RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_SOURCE_DIR}/packaging/bash-completion/tfcc
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  option(TFCC_MAN_PAGES "Make man pages from the tfcc commands' --help (runs the built tfcc)" ON)
  if(TFCC_MAN_PAGES AND NOT CMAKE_CROSSCOMPILING)
    # one page per command in tools/main.c's table, plus tfcc.1
    file(STRINGS ${CMAKE_SOURCE_DIR}/tools/main.c TFCC_CMD_LINES REGEX "^ *{\"[a-z-]+\", cmd_")
    set(TFCC_MAN_COMMANDS "")
    set(TFCC_MAN_PAGES_OUT ${CMAKE_BINARY_DIR}/man/tfcc.1)
    foreach(line ${TFCC_CMD_LINES})
      string(REGEX REPLACE "^ *{\"([a-z-]+)\".*" "\\1" c "${line}")
      list(APPEND TFCC_MAN_COMMANDS ${c})
      list(APPEND TFCC_MAN_PAGES_OUT ${CMAKE_BINARY_DIR}/man/tfcc-${c}.1)
    endforeach()
    string(REPLACE ";" "," TFCC_MAN_COMMANDS_ARG "${TFCC_MAN_COMMANDS}")
    add_custom_command(OUTPUT ${TFCC_MAN_PAGES_OUT}
      COMMAND ${CMAKE_COMMAND} -DTFCC=$<TARGET_FILE:tfcc> -DOUT=${CMAKE_BINARY_DIR}/man
              -DVERSION=${PROJECT_VERSION} -DCOMMANDS=${TFCC_MAN_COMMANDS_ARG}
              -P ${CMAKE_CURRENT_LIST_DIR}/TfccMan.cmake
      DEPENDS tfcc ${CMAKE_CURRENT_LIST_DIR}/TfccMan.cmake
      COMMENT "Man pages from tfcc --help" VERBATIM)
    add_custom_target(tfcc_man ALL DEPENDS ${TFCC_MAN_PAGES_OUT})
    install(FILES ${TFCC_MAN_PAGES_OUT} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endif()
endif()
