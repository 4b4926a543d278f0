# ---- One frame of the slides (issue 19): core/trace/frame, the access log, `tilescope frame` ----
if(TARGET tilescope_trace)
  add_executable(frame_tests test_frame.cpp test_main.cpp)
  target_link_libraries(frame_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json)
  target_compile_definitions(frame_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
  add_dependencies(frame_tests tilescope tilescope_trace)
  gtest_discover_tests(frame_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endif()
