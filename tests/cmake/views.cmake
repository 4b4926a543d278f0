# ---- Views (issue 9): emulation view, heatmap scale, compare, counters, plots ----
# Screenshots and --layout files of the scripted GUI under an Xvfb the test starts itself.
if(TARGET tilescope_ui AND TARGET tilescope_trace)
  add_executable(gui_views_tests test_gui_views.cpp)
  target_link_libraries(gui_views_tests PRIVATE tilescope_core GTest::gtest nlohmann_json::nlohmann_json stb)
  target_compile_definitions(gui_views_tests PRIVATE TILESCOPE_BIN="$<TARGET_FILE:tilescope>")
  add_dependencies(gui_views_tests tilescope tilescope_trace)
  gtest_discover_tests(gui_views_tests DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
endif()
# Plot label placement (ui/plot), pure geometry.
if(TARGET tilescope_ui)
  add_executable(plot_label_tests test_plot_labels.cpp test_main.cpp)
  target_link_libraries(plot_label_tests PRIVATE tilescope_ui GTest::gtest)
  gtest_discover_tests(plot_label_tests DISCOVERY_TIMEOUT 60)
endif()
