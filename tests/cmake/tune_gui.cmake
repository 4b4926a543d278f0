# ---- "Tune this device" (issue 12): tune --quick from the GUI ----
# quick_tune_to_file's cancel, progress and write, headless with a stand-in device.
add_executable(tune_quick_tests test_tune_quick.cpp test_main.cpp)
target_link_libraries(tune_quick_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(tune_quick_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)
