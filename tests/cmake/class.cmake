# ---- Class mode (issue 34): core/classroom headless; app/net's server attacked on loopback ----
add_executable(class_room_tests test_class_room.cpp test_main.cpp)
target_link_libraries(class_room_tests PRIVATE tilescope_core GTest::gtest)
gtest_discover_tests(class_room_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 60)
