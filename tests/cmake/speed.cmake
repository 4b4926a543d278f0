# ---- Fast everywhere (issue 12): tuning lookup and buckets, the CPU rung ----
add_executable(speed_tests test_speed.cpp test_main.cpp)
target_link_libraries(speed_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(speed_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
# The CPU rung's traffic, traced on the emulator.
if(TARGET tilescope_trace)
  add_executable(speed_trace_tests test_speed_traces.cpp test_main.cpp)
  target_link_libraries(speed_trace_tests PRIVATE tilescope_core GTest::gtest)
  add_dependencies(speed_trace_tests tilescope_trace)
  gtest_discover_tests(speed_trace_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
