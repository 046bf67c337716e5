# Install rules (issue 23): `cmake --install build [--prefix P]` installs the program, the presets
# (found by name from P/share/gpumemsim/presets, tools/study/presets.h), a man page generated from
# --help, the static libraries with their headers and a CMake package
# (find_package(gpumemsim) -> gpumemsim::gpumemsim), and the Python module (python/). CPack
# turns the same install into a .deb (.ci/deb.sh).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GMS_PRESET_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/gpumemsim/presets)
set(GMS_DOC_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/doc/gpumemsim)
# The program finds the presets and its hardware notes relative to itself (bin/../share/...), so
# an installed tree may be moved (an extracted .deb, a relocated prefix).
set_source_files_properties(${CMAKE_SOURCE_DIR}/tools/study/presets.cc PROPERTIES
  COMPILE_DEFINITIONS "GMS_PRESET_INSTALL_DIR=\"${GMS_PRESET_INSTALL_DIR}\";GMS_DOC_INSTALL_DIR=\"${GMS_DOC_INSTALL_DIR}\"")

install(TARGETS gpumemsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/ DESTINATION ${GMS_PRESET_INSTALL_DIR}
        FILES_MATCHING PATTERN "*.ini")
install(FILES ${CMAKE_SOURCE_DIR}/tests/data/example_stream.wtrace
        DESTINATION ${CMAKE_INSTALL_DATADIR}/gpumemsim/examples)
# The documents an installed copy cites (issue 36): the trace format, the presets' hardware notes
# (`gpumemsim presets` prints where), the configuration keys (--help and the man page cite
# docs/config.md), and the pages those link to; the README with them.
install(FILES ${CMAKE_SOURCE_DIR}/docs/wtrace.md ${CMAKE_SOURCE_DIR}/docs/hardware.md
              ${CMAKE_SOURCE_DIR}/docs/config.md ${CMAKE_SOURCE_DIR}/docs/examples.md
              ${CMAKE_SOURCE_DIR}/docs/groundtruth.md ${CMAKE_SOURCE_DIR}/README.md
        DESTINATION ${GMS_DOC_INSTALL_DIR})

# The manual as a site (issue 60): mkdocs.yml over docs/, built into BUILD/site and installed beside
# the man page as share/doc/gpumemsim/html (open index.html; no request leaves the site). Built
# only where MkDocs is found (Debian: mkdocs, mkdocs-material; tools/install-deps.sh --ci).
find_program(GMS_MKDOCS mkdocs)
if(GMS_MKDOCS)
  file(GLOB GMS_MANUAL_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md
       ${CMAKE_SOURCE_DIR}/docs/*.png)
  set(GMS_SITE_DIR ${CMAKE_BINARY_DIR}/site)
  add_custom_command(
    OUTPUT ${GMS_SITE_DIR}/index.html
    COMMAND ${GMS_MKDOCS} build --strict --quiet --config-file ${CMAKE_SOURCE_DIR}/mkdocs.yml
            --site-dir ${GMS_SITE_DIR}
    DEPENDS ${CMAKE_SOURCE_DIR}/mkdocs.yml ${GMS_MANUAL_SOURCES}
    COMMENT "Building the manual (mkdocs) into site/"
    VERBATIM)
  add_custom_target(gpumemsim_manual ALL DEPENDS ${GMS_SITE_DIR}/index.html)
  install(DIRECTORY ${GMS_SITE_DIR}/ DESTINATION ${GMS_DOC_INSTALL_DIR}/html OPTIONAL)
else()
  message(STATUS "gpumemsim: mkdocs not found: the manual is not built or installed as HTML")
endif()

# Man page: help2man over `gpumemsim --help`, with every command's --help as a COMMANDS section.
find_program(GMS_HELP2MAN help2man)
if(GMS_HELP2MAN)
  set(man ${CMAKE_BINARY_DIR}/man/gpumemsim.1)
  set(commands run explain gen convert info sweep merge compare validate curves presets fidelity)
  add_custom_command(
    OUTPUT ${man}
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:gpumemsim> "-DCOMMANDS=${commands}"
            -DDOC_DIR=${GMS_DOC_INSTALL_DIR}
            -DOUT=${CMAKE_BINARY_DIR}/man/commands.h2m -P ${CMAKE_SOURCE_DIR}/cmake/man_commands.cmake
    COMMAND ${GMS_HELP2MAN} --no-info --version-string=${PROJECT_VERSION}
            "--name=trace-driven GPU memory subsystem simulator"
            --include=${CMAKE_BINARY_DIR}/man/commands.h2m --output=${man} $<TARGET_FILE:gpumemsim>
    DEPENDS gpumemsim ${CMAKE_SOURCE_DIR}/cmake/man_commands.cmake
    COMMENT "Generating the man page gpumemsim.1 from --help"
    VERBATIM)
  add_custom_target(gpumemsim_man ALL DEPENDS ${man})
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "help2man not found (Debian: help2man): no man page is installed")
endif()

# The C++ library: every layer (static), the headers at their source paths under
# include/gpumemsim, and gpumemsim::gpumemsim linking them all (the tests' `gms`).
set(GMS_LAYERS gms_core gms_lanes gms_host gms_config gms_model gms_trace_io gms_trace_native
               gms_trace_import gms_replay gms_report gms_study gms_gen gms_layout
               gms_diagnosis)
set_target_properties(gms PROPERTIES EXPORT_NAME gpumemsim)
install(TARGETS ${GMS_LAYERS} gms EXPORT gpumemsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir sim trace tools/study tools/gen)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir}/ DESTINATION include/gpumemsim/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/generated/sim/config/default_config.h
        DESTINATION include/gpumemsim/sim/config)
set(GMS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpumemsim)
install(EXPORT gpumemsimTargets NAMESPACE gpumemsim:: DESTINATION ${GMS_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/gpumemsimConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/gpumemsimConfig.cmake
                              INSTALL_DESTINATION ${GMS_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/gpumemsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/gpumemsimConfig.cmake
              ${CMAKE_BINARY_DIR}/gpumemsimConfigVersion.cmake DESTINATION ${GMS_CMAKE_DIR})

# The .deb of this install (`cpack --config build/CPackConfig.cmake`, .ci/deb.sh): /usr prefix,
# library dependencies from dpkg-shlibdeps, the Python module for Debian's python3.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpumemsim)
set(CPACK_PACKAGE_VENDOR "gpumemsim")
set(CPACK_PACKAGE_CONTACT "gpumemsim developers <gpumemsim@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "trace-driven GPU memory subsystem simulator (coalescing, bank conflicts, L1/L2/DRAM)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The module's Python side, and what the installed headers and CMake package build against.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "python3-pandas, libboost-program-options-dev, libfmt-dev, libspdlog-dev, nlohmann-json3-dev, libzstd-dev, liblzma-dev, pkg-config")
include(CPack)
