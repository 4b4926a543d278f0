# ---- "Tune this device" (issue 12): tune --quick from the GUI ----
# quick_tune_to_file's cancel, progress and write, headless with a stand-in device.
add_executable(tune_quick_tests test_tune_quick.cpp test_main.cpp)
target_link_libraries(tune_quick_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(tune_quick_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)
# The live GUI's offer, a run to "tuned here" and a cancelled run (PoCL, Xvfb, xdotool).
# The suite's longest test (a whole performance plan and a quick tune, minutes): a high COST
# starts it first on a fresh clone (no cost data yet), and it runs beside others, not alone
# (its Xvfb is its own, so the window it drives is the only one there).
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_tune_tests test_gui_tune.cpp)
  target_link_libraries(gui_tune_tests PRIVATE GTest::gtest nlohmann_json::nlohmann_json stb)
  target_compile_definitions(gui_tune_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
  add_dependencies(gui_tune_tests tilescope tilescope_trace)
  gtest_discover_tests(gui_tune_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 1500 COST 10000)
endif()
