# ---- Reveal means reveal (issue 21): each lesson question's answer is off the screen until Reveal ----
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(lesson_reveal_tests test_lesson_reveal.cpp)
  target_link_libraries(lesson_reveal_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json stb)
  target_compile_definitions(lesson_reveal_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
                             TILESCOPE_LESSONS="${CMAKE_SOURCE_DIR}/assets/lessons")
  add_dependencies(lesson_reveal_tests tilescope tilescope_trace)
  gtest_discover_tests(lesson_reveal_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 900)
endif()
