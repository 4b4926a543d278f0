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
