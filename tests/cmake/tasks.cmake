# ---- Core tasks (issue 22): the jobs the CLI and the GUI share ----
# The performance plan's contents, `bench --plan performance` against it, and cancels of
# the plan and of tune --quick (PoCL and the emulator; no display).
if(TARGET tilescope_trace)
  add_executable(tasks_tests test_tasks.cpp test_main.cpp)
  target_link_libraries(tasks_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json)
  target_compile_definitions(tasks_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                             TILESCOPE_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data")
  add_dependencies(tasks_tests tilescope tilescope_trace)
  # Two of them run the whole performance plan (minutes): started early (COST) on a fresh clone.
  gtest_discover_tests(tasks_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 900 COST 5000)
endif()
