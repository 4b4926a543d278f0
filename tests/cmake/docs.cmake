# ---- Docs that name every rung or lesson are checked against the data (issue 35) ----
# README.md's kernel table lists kernels/ladder.json's rungs, in order (the message says how
# to regenerate it: tests/docs/check_catalog_docs.py ROOT --write); docs/guide.md has a
# section per lesson in assets/lessons/.
find_program(TILESCOPE_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT TILESCOPE_PYTHON3)
  find_program(TILESCOPE_PYTHON3 NAMES python3 REQUIRED)
endif()
add_test(NAME Docs.CatalogListsMatchTheCatalog
         COMMAND ${TILESCOPE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_catalog_docs.py ${CMAKE_SOURCE_DIR})
add_test(NAME Docs.AWrongListIsCaught
         COMMAND ${TILESCOPE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_catalog_docs.py --self-test)
