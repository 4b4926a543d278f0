# ---- Issue 32, item 2: one budget for every input; the hand-out and the views linear ----
# Each of the issue's known failures as a small hostile file (checksums recomputed), core
# and binary; about 5 s in all (the emulator traces 1x1x512 once).
add_executable(budget_tests hardening/test_budget.cpp test_main.cpp)
target_link_libraries(budget_tests PRIVATE tilescope_core GTest::gtest)
target_compile_definitions(budget_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                           TILESCOPE_HARDENING_DATA="${CMAKE_CURRENT_SOURCE_DIR}/hardening/data")
add_dependencies(budget_tests tilescope tilescope_trace)
if(TARGET tilescope_ui)  # the GUI's frame cache, headless
  target_link_libraries(budget_tests PRIVATE tilescope_ui)
  target_compile_definitions(budget_tests PRIVATE TILESCOPE_BUDGET_UI=1)
endif()
gtest_discover_tests(budget_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
