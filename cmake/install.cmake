# Installation and the Debian package (issue 35). Where things go (GNUInstallDirs):
#   bin/tilescope                        the program (kernels, lessons, hand-out page compiled in)
#   lib/tilescope/libtilescope_trace.so  the Oclgrind plugin; the program looks in ../lib/tilescope
#                                        next to itself (find_trace_plugin, core/emulator/trace_runner.cpp)
#   share/tilescope/{kernels,lessons,handout,scenes,tuning}  readable copies for instructors
#   share/applications/tilescope.desktop, share/icons/hicolor/scalable/apps/tilescope.svg
#   share/man/man1/tilescope.1           made by help2man from the --help texts at build time
include(GNUInstallDirs)

install(TARGETS tilescope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET tilescope_trace)
  # Not CMAKE_INSTALL_LIBDIR: on Debian that is lib/<triplet>, and the program looks in lib/tilescope.
  install(TARGETS tilescope_trace LIBRARY DESTINATION lib/tilescope)
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/kernels/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tilescope/kernels)
foreach(dir lessons handout scenes tuning)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/assets/${dir}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tilescope/${dir})
endforeach()
install(FILES ${CMAKE_SOURCE_DIR}/assets/desktop/tilescope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_SOURCE_DIR}/assets/desktop/tilescope.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)

# The man page, from `tilescope --help` and every subcommand's --help (cmake/man_help.sh).
find_program(HELP2MAN help2man)
set(TILESCOPE_MAN_PAGE ${CMAKE_BINARY_DIR}/tilescope.1)
if(HELP2MAN)
  add_custom_command(OUTPUT ${TILESCOPE_MAN_PAGE}
    COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
            --name "see GPU memory traffic in OpenCL matrix multiplication"
            --output ${TILESCOPE_MAN_PAGE} "${CMAKE_SOURCE_DIR}/cmake/man_help.sh $<TARGET_FILE:tilescope>"
    DEPENDS tilescope ${CMAKE_SOURCE_DIR}/cmake/man_help.sh
    COMMENT "help2man: the man page tilescope.1 from the --help texts")
  add_custom_target(tilescope_man ALL DEPENDS ${TILESCOPE_MAN_PAGE})
  install(FILES ${TILESCOPE_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "tilescope: help2man not found, so no man page (tilescope.1) is built or installed and "
                  "the Install.ManPage test is disabled; install it with: apt-get install help2man")
endif()

# The Debian package: cpack -G DEB (scripts/package.sh). Depends come from dpkg-shlibdeps on the
# program and the plugin, plus what is loaded at run time rather than linked.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "tilescope maintainers <tilescope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see GPU memory traffic in OpenCL matrix multiplication")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# oclgrind: its ICD library is dlopen()ed (the emulator device); fonts for the GUI.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "oclgrind, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd")
include(CPack)
