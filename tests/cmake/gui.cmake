# ---- GUI frame (issue 9): the window seam, resizing, presenter mode ----
# A live window under an Xvfb the test starts itself, driven with xdotool and --control.
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_window_tests test_gui_window.cpp)
  target_link_libraries(gui_window_tests PRIVATE GTest::gtest nlohmann_json::nlohmann_json stb)
  target_compile_definitions(gui_window_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
  add_dependencies(gui_window_tests tilescope tilescope_trace)
  gtest_discover_tests(gui_window_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
