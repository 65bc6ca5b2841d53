# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# packaging.cmake -- Debian packages with CPack: `cpack -G DEB` in a build
# configured with -DCMAKE_INSTALL_PREFIX=/usr (so that GNUInstallDirs puts the
# library into lib/<multiarch>, as Debian does) makes one package per install
# component of CMakeLists.txt:
#   libprofbridge0     lib: the shared library (shlibs file, ldconfig trigger)
#   libprofbridge-dev  dev: headers, static library, the .so link, profbridge.pc,
#                      the CMake package
#   profbridge         cli: the tool, its man page, bash and zsh completion, the
#                      llvm-profdata links under libexec
# Dependencies on Debian's libraries come from dpkg-shlibdeps (package
# dpkg-dev); the -dev package depends on the -dev packages that profbridge.pc
# and profbridgeConfig.cmake ask for. tests/interop/deb_package.sh builds,
# inspects, installs, uses and removes the three.
set(PB_DEB_MAINTAINER "profbridge developers <profbridge@localhost>" CACHE STRING
  "Maintainer field of the Debian packages (name <address>)")

set(CPACK_PACKAGE_NAME profbridge)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${PB_DEB_MAINTAINER}")
# no CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPackDeb would put it before each
# package's own description; each description's first line is its summary
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL lib dev cli)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # name_version-release_arch.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PB_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")  # before 1.0 a minor release may change the ABI

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libprofbridge0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_DESCRIPTION "PGO profile conversion library (GraalVM iprof, LLVM raw/indexed/text)
libprofbridge reads and writes GraalVM Native Image iprof profiles and LLVM's
raw (.profraw), indexed (.profdata) and text (.proftext) instrumentation
profiles through one model, merges them as llvm-profdata does and writes what
the llvm-profdata of each LLVM release 13-24 writes.

Licence: Apache-2.0 WITH LLVM-exception.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libprofbridge-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_ARCHITECTURE_DEPENDS ON)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "libprofbridge0 (= ${PROJECT_VERSION}-1), libjansson-dev, libmd-dev, libxxhash-dev, libdeflate-dev, libelf-dev, libdw-dev, zlib1g-dev")
set(CPACK_DEBIAN_DEV_DESCRIPTION "PGO profile conversion library - development files
Headers, static library, pkg-config file and CMake package
(find_package(profbridge)) of libprofbridge, which converts PGO profiles
between GraalVM iprof and LLVM's raw, indexed and text formats.

Licence: Apache-2.0 WITH LLVM-exception.")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME profbridge)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION devel)
# The tool links the shared library: dpkg-shlibdeps finds it in the build
# tree (it has no shlibs file there, so the dependency is named here).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR})
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "libprofbridge0 (= ${PROJECT_VERSION}-1)")
set(CPACK_DEBIAN_CLI_DESCRIPTION "convert, merge and inspect PGO profiles (GraalVM iprof, LLVM)
profbridge converts profile-guided-optimisation profiles between GraalVM
Native Image iprof JSON and LLVM's .profraw, .profdata and .proftext, and
validates, shows, dumps, merges, overlaps and diffs them. Started as
llvm-profdata-N (links in /usr/libexec/profbridge/llvm/bin, off PATH) it
behaves as llvm-profdata of LLVM release N (13-24).

Licence: Apache-2.0 WITH LLVM-exception.")

# Debian wants each package's copyright file in /usr/share/doc/<package>.
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libprofbridge0
  RENAME copyright COMPONENT lib)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libprofbridge-dev
  RENAME copyright COMPONENT dev)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/profbridge
  RENAME copyright COMPONENT cli)
install(FILES ${CMAKE_SOURCE_DIR}/CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/profbridge COMPONENT cli)

include(CPack)
