# ---- The CPU's share of its peak, timed in pairs (issue 30 item 4) ----
# Pure: the spread of the pairs' ratios, the peak kernel's launch sized to a rung's FLOPs, a share
# from fake timings (paired_share_of) and why every size's pairs share the rounds (cpu8).
# PoCL: Runner::measure_interleaved (rounds of several launches, each verified), measure_paired_shares
# (two sizes in the same rounds); the CLI's
# `ceilings --against K` output and JSON shape at tiny sizes and its refusals. Shapes only:
# no figure is judged here (speed is measured by the subcommand, never by a timed test).
add_executable(peak_share_tests test_peak_share.cpp test_main.cpp)
target_link_libraries(peak_share_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json)
target_compile_definitions(peak_share_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
add_dependencies(peak_share_tests tilescope)
gtest_discover_tests(peak_share_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
