# ---- Class mode (issue 34): core/classroom headless; app/net's server attacked on loopback ----
add_executable(class_room_tests test_class_room.cpp test_main.cpp)
target_link_libraries(class_room_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(class_room_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 60)
# The server on loopback, attacked (path traversal, huge and malformed requests, slow
# clients, codes, replays, a flood of connections, stop); a few seconds.
find_package(PkgConfig REQUIRED)
pkg_check_modules(TEST_HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
add_executable(class_server_tests test_class_server.cpp test_main.cpp)
target_link_libraries(class_server_tests PRIVATE tilescope_net PkgConfig::TEST_HTTPLIB GTest::gtest)
gtest_discover_tests(class_server_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 60)
# Headless chromium: two student pages (375 and 1280 px) follow, answer, see Reveal (~2 s).
if(TARGET tilescope_trace AND NOT TILESCOPE_SANITIZE)  # chromium: the normal build's
  add_test(NAME ClassBrowser.TwoPagesFollowAnswerAndSeeReveal
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/class_browser_test.py $<TARGET_FILE:tilescope>
                   ${CMAKE_SOURCE_DIR}/assets/lessons/2_tiling_4x4.json ${CMAKE_CURRENT_BINARY_DIR}/class_browser)
  set_tests_properties(ClassBrowser.TwoPagesFollowAnswerAndSeeReveal PROPERTIES TIMEOUT 120)
  if(TARGET tilescope_ui)  # the same, the class started from the GUI under Xvfb, and its part and iteration (~11 s)
    add_test(NAME ClassBrowser.FromTheGuiTwoPagesFollowAnswerAndSeeReveal
             COMMAND ${CMAKE_COMMAND} -E env CLASS_TEST_GUI=1
                     /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/class_browser_test.py $<TARGET_FILE:tilescope>
                     ${CMAKE_SOURCE_DIR}/assets/lessons/2_tiling_4x4.json ${CMAKE_CURRENT_BINARY_DIR}/class_browser_gui)
    set_tests_properties(ClassBrowser.FromTheGuiTwoPagesFollowAnswerAndSeeReveal PROPERTIES TIMEOUT 120)
  endif()
endif()
# Bad input: one line, status 2, nothing started.
foreach(bad "class" "class --lesson /nonexistent.json" "class --open a.tstrace --lesson b.json"
            "class --lesson x.json --listen 1.2.3:80" "class --lesson x.json --code a!" "class --bench --students 0"
            "class --lesson x.json --per-address 0")
  string(REPLACE " " ";" bad_args "${bad}")
  string(MAKE_C_IDENTIFIER "${bad}" bad_name)
  add_test(NAME ClassCli.BadInput_${bad_name}
           COMMAND sh -c "\"$0\" \"$@\" 2>&1 </dev/null; echo \"status=$?\"" $<TARGET_FILE:tilescope> ${bad_args})
  # One line naming what was wrong, then status 2 (PASS_REGULAR_EXPRESSION alone decides).
  set_tests_properties(ClassCli.BadInput_${bad_name} PROPERTIES PASS_REGULAR_EXPRESSION "^tilescope class: [^\n]+\nstatus=2\n$")
endforeach()
