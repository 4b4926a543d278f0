# ---- Hardening (issue 13): checked arithmetic, bounds, atomic state files, fuzzing ----
add_executable(hardening_tests
  hardening/test_bounds.cpp
  hardening/test_untrusted_files.cpp
  hardening/test_saved_launch.cpp  # issue 32: one validator of saved launches; carried kernels
  test_main.cpp
)
target_link_libraries(hardening_tests PRIVATE tilescope_core GTest::gtest)
target_include_directories(hardening_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(hardening_tests PRIVATE TILESCOPE_HARDENING_DATA="${CMAKE_CURRENT_SOURCE_DIR}/hardening/data")
gtest_discover_tests(hardening_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)

# The deterministic fuzzer of every user-input parser (tests/hardening/fuzz_parsers.cpp).
# The short run is a test: 20,000 inputs per parser (220,000 in all with the GUI's scenes) from a fixed seed,
# at least 10,000 of them refused per parser; scripts/fuzz.sh runs it long.
add_executable(tilescope_fuzz hardening/fuzz_parsers.cpp)
target_link_libraries(tilescope_fuzz PRIVATE tilescope_core)
if(TARGET tilescope_ui)
  target_link_libraries(tilescope_fuzz PRIVATE tilescope_ui)
  target_compile_definitions(tilescope_fuzz PRIVATE TILESCOPE_FUZZ_SCENES=1)
else()
  # The GUI's control file reader needs only the core: fuzzed in the sanitizer build too.
  target_sources(tilescope_fuzz PRIVATE ${CMAKE_SOURCE_DIR}/app/ui/shell/control_file.cpp)
endif()
add_test(NAME fuzz_parsers_short
  COMMAND tilescope_fuzz --corpus ${CMAKE_CURRENT_SOURCE_DIR}/hardening/corpus --runs 20000 --seed 1
          --min-refused 10000)
set_tests_properties(fuzz_parsers_short PROPERTIES TIMEOUT 3000)  # 15-25 minutes under ASan + UBSan
# Issue 23: files from other people. Saved traces (byte mutations, truncations, length-field
# and nesting attacks, semantic edits), lessons, tuning files and the GUI's control file,
# with a seed of their own beside the short run's. Fails on any crash, any input over 2 s,
# a peak over 1 GiB. Under ASan + UBSan (CI's second step) a trace costs about 50 ms (it is
# parsed, validated, turned into the hand-out and every view model), the others about
# 0.15 ms: the sanitizer build runs 10,000 traces here (20,000 more in fuzz_parsers_short)
# and 40,000 of each cheap class, so files fuzzed under the sanitizers come to 210,000
# (30,000 traces) and CI's 90 minutes hold; the normal build runs 80,000 traces here.
if(TILESCOPE_SANITIZE)
  set(TILESCOPE_FUZZ_FILES_RUNS 10000)
else()
  set(TILESCOPE_FUZZ_FILES_RUNS 80000)
endif()
add_test(NAME fuzz_files
  COMMAND tilescope_fuzz --corpus ${CMAKE_CURRENT_SOURCE_DIR}/hardening/corpus --target tstrace,lesson,tuning,control
          --runs 40000 --runs-of tstrace=${TILESCOPE_FUZZ_FILES_RUNS} --seed 3)
set_tests_properties(fuzz_files PROPERTIES TIMEOUT 1800)

# The real binary: hostile values, Ctrl-C during endless kernels, 50 MB sources, tuning
# files under two writers and kill -9.
add_executable(hardening_cli_tests hardening/test_cli_hostile.cpp
  hardening/test_carried_cli.cpp)  # issue 32: a file's kernel asked first, run contained; export's validator
target_link_libraries(hardening_cli_tests PRIVATE tilescope_core GTest::gtest_main nlohmann_json::nlohmann_json)
target_include_directories(hardening_cli_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
if(TARGET tilescope_trace)
  add_dependencies(hardening_cli_tests tilescope_trace)
endif()
target_compile_definitions(hardening_cli_tests PRIVATE
  TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
  TILESCOPE_HARDENING_DATA="${CMAKE_CURRENT_SOURCE_DIR}/hardening/data")
add_dependencies(hardening_cli_tests tilescope)
gtest_discover_tests(hardening_cli_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)

# Issue 23 in the GUI (Xvfb of its own): a huge shape with huge texts in every view, a
# lesson at and past its limits, the GUI's watchdog (worker and live window).
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_files_tests hardening/test_gui_files.cpp
    hardening/test_gui_carried.cpp)  # issue 32: opening a file's kernel runs nothing
  target_link_libraries(gui_files_tests PRIVATE tilescope_ui GTest::gtest stb)
  target_include_directories(gui_files_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(gui_files_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                             TILESCOPE_HARDENING_DATA="${CMAKE_CURRENT_SOURCE_DIR}/hardening/data")
  add_dependencies(gui_files_tests tilescope tilescope_trace)
  gtest_discover_tests(gui_files_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
