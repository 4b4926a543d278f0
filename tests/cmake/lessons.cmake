# ---- Lessons (issue 10): saved traces, exercises, wrong cells, barrier toggle, hand-outs ----
if(TARGET tilescope_trace)
  # Core: .tstrace round trips, damaged files, source edits, wrong cells, the hand-out's data.
  add_executable(lessons_tests test_lessons.cpp test_main.cpp)
  target_link_libraries(lessons_tests PRIVATE tilescope_core GTest::gtest)
  add_dependencies(lessons_tests tilescope_trace)
  gtest_discover_tests(lessons_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
  # Through the binary: every exercise, --drop-barrier, --save, export --html in chromium.
  add_executable(lessons_cli_tests test_lessons_cli.cpp test_main.cpp)
  target_link_libraries(lessons_cli_tests PRIVATE tilescope_core GTest::gtest)
  # reads the hand-out's screenshots back: libstb (Debian's libstb-dev), linked by name as the
  # GUI tests do (it is no CMake target, so `if(TARGET stb)` had compiled those checks out)
  target_link_libraries(lessons_cli_tests PRIVATE stb)
  target_compile_definitions(lessons_cli_tests PRIVATE TILESCOPE_HAVE_STB=1)
  target_compile_definitions(lessons_cli_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                             TILESCOPE_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  add_dependencies(lessons_cli_tests tilescope tilescope_trace)
  gtest_discover_tests(lessons_cli_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
# The GUI under an Xvfb of its own: every lesson step, --open without drivers, --record.
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(lessons_gui_tests test_lessons_gui.cpp)
  target_link_libraries(lessons_gui_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json stb gif)
  target_compile_definitions(lessons_gui_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                             TILESCOPE_LESSONS="${CMAKE_SOURCE_DIR}/assets/lessons")
  add_dependencies(lessons_gui_tests tilescope tilescope_trace)
  gtest_discover_tests(lessons_gui_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
# ---- One truth per screen (issue 33): each lesson step's text against the frame it opens ----
if(TARGET tilescope_trace)
  add_executable(step_check_tests test_step_check.cpp test_main.cpp)
  target_link_libraries(step_check_tests PRIVATE tilescope_core GTest::gtest)
  target_compile_definitions(step_check_tests PRIVATE TILESCOPE_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  add_dependencies(step_check_tests tilescope_trace)
  gtest_discover_tests(step_check_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endif()
