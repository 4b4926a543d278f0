# ---- Split K (issue 20, item 2): rung splitk verified on PoCL, its two kernels' closed forms
# held to the emulator's trace, its launch resolved at the shapes it is for ----
if(TARGET tilescope_trace)
  add_executable(splitk_tests ${CMAKE_CURRENT_SOURCE_DIR}/test_splitk.cpp ${CMAKE_CURRENT_SOURCE_DIR}/test_main.cpp)
  target_link_libraries(splitk_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json)
  target_compile_definitions(splitk_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
  add_dependencies(splitk_tests tilescope tilescope_trace)
  gtest_discover_tests(splitk_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
