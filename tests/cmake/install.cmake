# ---- Installed like a Debian tool (issue 35; cmake/install.cmake, scripts/package.sh) ----
# --version and version print the version, the git revision, the OpenCL loader and Oclgrind.
add_test(NAME Install.Version
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/check_version.sh $<TARGET_FILE:tilescope> ${PROJECT_VERSION})
# The .deb, made by cpack into build/package (a fixture, a few seconds), unpacked with
# dpkg-deb -x into a temporary root and run from there: tour, trace, export --html.
# The package needs every target; the sanitizer build makes only some (scripts/test_sanitizers.sh).
if(NOT TILESCOPE_SANITIZE)
add_test(NAME Install.MakeDeb
         COMMAND ${CMAKE_CPACK_COMMAND} -G DEB -B ${CMAKE_BINARY_DIR}/package --config ${CMAKE_BINARY_DIR}/CPackConfig.cmake)
set_tests_properties(Install.MakeDeb PROPERTIES FIXTURES_SETUP tilescope_deb TIMEOUT 120)
add_test(NAME Install.DebRunsWithoutTheBuildTree
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/deb_run.sh ${CMAKE_BINARY_DIR}/package ${PROJECT_VERSION})
set_tests_properties(Install.DebRunsWithoutTheBuildTree PROPERTIES FIXTURES_REQUIRED tilescope_deb TIMEOUT 120)
# The man page made by help2man (cmake/install.cmake) has every subcommand.
add_test(NAME Install.ManPage
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install/check_man.sh $<TARGET_FILE:tilescope> ${CMAKE_BINARY_DIR}/tilescope.1)
if(NOT HELP2MAN)
  # Shown by ctest as "Not Run (Disabled)"; configure warns (apt-get install help2man).
  set_tests_properties(Install.ManPage PROPERTIES DISABLED TRUE)
endif()
endif()
