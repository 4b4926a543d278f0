# ---- The core truth behind the views (issue 9): local arrays as declared, access-width
# ideals for coalescing and bank conflicts, closed forms for every rung of the ladder ----
if(TARGET tilescope_trace)
  add_executable(core_truth_tests ${CMAKE_CURRENT_SOURCE_DIR}/test_core_truth.cpp ${CMAKE_CURRENT_SOURCE_DIR}/test_main.cpp)
  target_link_libraries(core_truth_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json)
  target_compile_definitions(core_truth_tests PRIVATE
    TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
    TILESCOPE_KERNEL_TESTS="${CMAKE_CURRENT_SOURCE_DIR}/kernels")
  add_dependencies(core_truth_tests tilescope tilescope_trace)
  gtest_discover_tests(core_truth_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
