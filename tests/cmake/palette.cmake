# ---- The one palette (issue 21): colour-blind check, one colour one meaning ----
add_executable(palette_tests test_palette.cpp test_main.cpp)
target_link_libraries(palette_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(palette_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 60)
