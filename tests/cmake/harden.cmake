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
# CI's fuzz tests run for a time budget, not a count: the same suite ran 20 minutes on one
# 2-core machine and 45 on a busy one. Each prints how many inputs every parser ran; the
# inputs depend only on the seed, so a failure is reproduced from its line (see fuzz.sh).
# Long campaigns run outside CI (scripts/fuzz.sh --hours N); their counts are in
# docs/reliability.md. TILESCOPE_FUZZ_SECONDS scales both budgets (e.g. -DTILESCOPE_FUZZ_SECONDS=600).
# The sanitizer build (CI's second step) gets twice the time: its inputs are 10x slower.
if(TILESCOPE_SANITIZE)
  set(TILESCOPE_FUZZ_SECONDS_DEFAULT 120)
else()
  set(TILESCOPE_FUZZ_SECONDS_DEFAULT 60)
endif()
set(TILESCOPE_FUZZ_SECONDS ${TILESCOPE_FUZZ_SECONDS_DEFAULT} CACHE STRING "Wall seconds each CI fuzz test spends (shared by its parsers)")
add_executable(tilescope_fuzz hardening/fuzz_parsers.cpp)
target_link_libraries(tilescope_fuzz PRIVATE tilescope_core)
if(TARGET tilescope_ui)
  target_link_libraries(tilescope_fuzz PRIVATE tilescope_ui)
  target_compile_definitions(tilescope_fuzz PRIVATE TILESCOPE_FUZZ_SCENES=1)
else()
  # The GUI's control file reader needs only the core: fuzzed in the sanitizer build too.
  target_sources(tilescope_fuzz PRIVATE ${CMAKE_SOURCE_DIR}/app/ui/shell/control_file.cpp)
endif()
target_compile_definitions(tilescope_fuzz PRIVATE TILESCOPE_FUZZ_CORPUS="${CMAKE_CURRENT_SOURCE_DIR}/hardening/corpus")
# The generators of large valid files (*_valid, issue 32 item 7) run in the normal build: under
# ASan + UBSan one such file takes seconds, past the fuzzer's 2-s bound, and the sanitizers'
# own memory past its 1 GiB one; the sanitizer build fuzzes the byte-mutated files.
if(TILESCOPE_SANITIZE)
  set(TILESCOPE_FUZZ_PARSERS hostile)
  set(TILESCOPE_FUZZ_FILE_TARGETS tstrace,lesson,tuning,control)
else()
  set(TILESCOPE_FUZZ_PARSERS all)
  set(TILESCOPE_FUZZ_FILE_TARGETS tstrace,tstrace_valid,lesson,lesson_valid,tuning,tuning_valid,control,control_valid)
endif()
# Every command-line parser, option values and spec strings: at least 50 inputs each
# (a machine too busy to run that many fails rather than passes), and at least half of them
# (up to 10,000) refused, so the run really was hostile.
add_test(NAME fuzz_parsers_short
  COMMAND tilescope_fuzz --corpus ${CMAKE_CURRENT_SOURCE_DIR}/hardening/corpus --seconds ${TILESCOPE_FUZZ_SECONDS}
          --target ${TILESCOPE_FUZZ_PARSERS}
          --seed 1 --min-inputs 50 --min-refused 10000)
math(EXPR TILESCOPE_FUZZ_TIMEOUT "${TILESCOPE_FUZZ_SECONDS} * 2 + 300")
set_tests_properties(fuzz_parsers_short PROPERTIES TIMEOUT ${TILESCOPE_FUZZ_TIMEOUT} COST 8000)
# Issue 23: files from other people. Saved traces (byte mutations, truncations, length-field
# and nesting attacks, semantic edits), lessons, tuning files and the GUI's control file,
# with a seed of their own beside the short run's. Fails on any crash, any input over 2 s,
# a peak over 1 GiB. A saved trace is parsed, validated, turned into the hand-out and every
# view model (about 50 ms under ASan + UBSan, 5 ms without), the other files are read only
# (0.15 ms). Each class twice: byte-mutated files, and valid files with extreme but consistent
# fields and a recomputed checksum (the *_valid targets: many steps, phases, groups, records,
# markup in names). Traces get a quarter of the budget each way, the other six a twelfth each.
math(EXPR TILESCOPE_FUZZ_TRACE_SECONDS "${TILESCOPE_FUZZ_SECONDS} / 4")
math(EXPR TILESCOPE_FUZZ_OTHER_SECONDS "${TILESCOPE_FUZZ_SECONDS} / 12")
set(TILESCOPE_FUZZ_FILE_SHARES)
foreach(target tstrace tstrace_valid)
  list(APPEND TILESCOPE_FUZZ_FILE_SHARES --seconds-of ${target}=${TILESCOPE_FUZZ_TRACE_SECONDS})
endforeach()
foreach(target lesson lesson_valid tuning tuning_valid control control_valid)
  list(APPEND TILESCOPE_FUZZ_FILE_SHARES --seconds-of ${target}=${TILESCOPE_FUZZ_OTHER_SECONDS})
endforeach()
add_test(NAME fuzz_files
  COMMAND tilescope_fuzz --corpus ${CMAKE_CURRENT_SOURCE_DIR}/hardening/corpus
          --target ${TILESCOPE_FUZZ_FILE_TARGETS}
          ${TILESCOPE_FUZZ_FILE_SHARES} --seed 3 --min-inputs 50)
set_tests_properties(fuzz_files PROPERTIES TIMEOUT ${TILESCOPE_FUZZ_TIMEOUT} COST 8000)

# The real binary: hostile values, Ctrl-C during endless kernels, 50 MB sources, tuning
# files under two writers and kill -9.
add_executable(hardening_cli_tests hardening/test_cli_hostile.cpp
  hardening/test_carried_cli.cpp  # issue 32: a file's kernel asked first, run contained; export's validator
  hardening/test_outputs_env.cpp)  # issue 32: one output writer, environment checked, messages
target_link_libraries(hardening_cli_tests PRIVATE tilescope_core GTest::gtest_main nlohmann_json::nlohmann_json)
target_include_directories(hardening_cli_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
if(TARGET tilescope_trace)
  add_dependencies(hardening_cli_tests tilescope_trace)
endif()
if(TARGET tilescope_ui)  # `gui --record` exists only where the GUI is built (not the sanitizer build)
  target_compile_definitions(hardening_cli_tests PRIVATE TILESCOPE_TEST_GUI=1)
endif()
# The tracing child that faults (tests only): what a crash of the emulator's child costs.
add_executable(faulting_child hardening/faulting_child.cpp)
target_link_libraries(faulting_child PRIVATE tilescope_core nlohmann_json::nlohmann_json)
add_dependencies(hardening_cli_tests faulting_child)
target_compile_definitions(hardening_cli_tests PRIVATE
  TILESCOPE_FAULTING_CHILD="$<TARGET_FILE:faulting_child>"
  TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
  TILESCOPE_HARDENING_DATA="${CMAKE_CURRENT_SOURCE_DIR}/hardening/data"
  TILESCOPE_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
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
