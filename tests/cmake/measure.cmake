# ---- One figure, one value; the CPU lesson explains this machine (issue 21, items 3 and 7) ----
# Pure: a measurement's spread, the "within noise" verdict, the CPU explanation's branches
# (synthetic Measurements, no device). CLI: bench --explain on PoCL against its own --json.
add_executable(measure_tests test_measure.cpp test_main.cpp)
target_link_libraries(measure_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json)
target_compile_definitions(measure_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
add_dependencies(measure_tests tilescope)
gtest_discover_tests(measure_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
# The live GUI: the bar and the size line's point at one size are one value (PoCL, Xvfb).
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_measure_tests test_gui_measure.cpp)
  target_link_libraries(gui_measure_tests PRIVATE GTest::gtest nlohmann_json::nlohmann_json stb)
  target_compile_definitions(gui_measure_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
  add_dependencies(gui_measure_tests tilescope tilescope_trace)
  gtest_discover_tests(gui_measure_tests DISCOVERY_TIMEOUT 60 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                       PROPERTIES TIMEOUT 1500 RUN_SERIAL TRUE)
endif()
