# ---- The rung picked for you (issue 30 item 3): --kernel fastest ----
# Pure: the nearest measured shape of a hand-written "fastest" table, the fallback chain (fake
# devices). CLI: bench --kernel fastest on PoCL at sizes drawn each run (seed printed); tune writing
# the table (TuneWritesTheTable); splitk and warp_tile at a K beyond 65536 (LongK). The
# performance plan (the GUI's Measure) with fastest asked, on PoCL; the roof-below-rung flag (pure).
# FastestTrial: a shape that is no row has its nearest rows' points timed and the winner remembered (PoCL, ~1 s).
add_executable(fastest_tests test_fastest.cpp test_main.cpp)
target_link_libraries(fastest_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json)
target_compile_definitions(fastest_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
add_dependencies(fastest_tests tilescope)
gtest_discover_tests(fastest_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
