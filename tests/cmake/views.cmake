# ---- Views (issue 9): emulation view, heatmap scale, compare, counters, plots ----
# Screenshots and --layout files of the scripted GUI under an Xvfb the test starts itself.
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_views_tests test_gui_views.cpp)
  target_link_libraries(gui_views_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json stb)
  target_compile_definitions(gui_views_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>"
    TILESCOPE_TEST_KERNELS="${CMAKE_CURRENT_SOURCE_DIR}/kernels")
  add_dependencies(gui_views_tests tilescope tilescope_trace)
  gtest_discover_tests(gui_views_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
# Plot label placement (ui/plot), pure geometry.
if(TARGET tilescope_ui)
  add_executable(plot_label_tests test_plot_labels.cpp test_main.cpp)
  target_link_libraries(plot_label_tests PRIVATE tilescope_ui GTest::gtest)
  gtest_discover_tests(plot_label_tests DISCOVERY_TIMEOUT 60)
endif()
# The counters panel's rows on traces of every rung (emulator, no display).
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_counter_tests test_gui_counters.cpp test_main.cpp)
  target_link_libraries(gui_counter_tests PRIVATE tilescope_ui GTest::gtest)
  add_dependencies(gui_counter_tests tilescope_trace)
  gtest_discover_tests(gui_counter_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endif()
