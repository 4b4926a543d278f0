# ---- The cache model (issue 11; core/cache_model, core/cache_trace, the plugin's requests) ----
# Hand-worked request streams, profiles and bad parameters: no emulator needed.
add_executable(cache_model_tests test_cache_model.cpp test_main.cpp)
target_link_libraries(cache_model_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(cache_model_tests DISCOVERY_TIMEOUT 60)
# Traced naive and tiled against an independent stream and a reference simulator; bounds;
# the 128^3 H200-like claim. The model's cost: cache_bench (not a test).
if(TARGET tilescope_trace)
  add_executable(cache_trace_tests test_cache_traces.cpp test_main.cpp)
  target_link_libraries(cache_trace_tests PRIVATE tilescope_core GTest::gtest)
  add_dependencies(cache_trace_tests tilescope_trace)
  gtest_discover_tests(cache_trace_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
  add_executable(cache_bench cache_bench.cpp)
  target_link_libraries(cache_bench PRIVATE tilescope_core)
  add_dependencies(cache_bench tilescope_trace)
  add_executable(cache_replay cache_replay.cpp)
  target_link_libraries(cache_replay PRIVATE tilescope_core)
  add_dependencies(cache_replay tilescope_trace)
endif()
# The command line: trace --caches's JSON names, table, bad values; devices.
add_executable(cache_cli_tests test_cache_cli.cpp)
target_link_libraries(cache_cli_tests PRIVATE GTest::gtest_main nlohmann_json::nlohmann_json)
target_compile_definitions(cache_cli_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                           TILESCOPE_VALIDATION="${CMAKE_SOURCE_DIR}/scripts/validation")
add_dependencies(cache_cli_tests tilescope)
gtest_discover_tests(cache_cli_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
# Work-groups per compute unit (issue 33): the slides' 8 / 2 / 1 blocks per SM from
# assets/occupancy/ profiles, each limit's closed form, bad profiles. Headless, milliseconds.
add_executable(occupancy_tests test_occupancy.cpp test_main.cpp)
target_link_libraries(occupancy_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(occupancy_tests DISCOVERY_TIMEOUT 60)
