# ---- tune --quick's guided search (issue 12), on made-up landscapes with a known best ----
add_executable(tune_search_tests test_quick_tune.cpp test_main.cpp)
target_link_libraries(tune_search_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(tune_search_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)
