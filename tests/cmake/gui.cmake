# ---- GUI frame (issue 9): the window seam, resizing, presenter mode ----
# A live window under an Xvfb the test starts itself, driven with xdotool and --control.
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_window_tests test_gui_window.cpp)
  target_link_libraries(gui_window_tests PRIVATE GTest::gtest nlohmann_json::nlohmann_json stb)
  target_compile_definitions(gui_window_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                             TILESCOPE_KERNEL_TESTS="${CMAKE_CURRENT_SOURCE_DIR}/kernels")
  add_dependencies(gui_window_tests tilescope tilescope_trace)
  gtest_discover_tests(gui_window_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
# The set-up form's phase count against traces of every rung (needs the emulator).
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_setup_phases_tests test_gui_setup_phases.cpp test_main.cpp)
  target_link_libraries(gui_setup_phases_tests PRIVATE tilescope_ui GTest::gtest)
  add_dependencies(gui_setup_phases_tests tilescope_trace)
  gtest_discover_tests(gui_setup_phases_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
