# Writes OUT from IN with TILESCOPE_GIT_REVISION = `git describe --always --dirty` of SRC
# ("unknown" outside a git checkout). configure_file leaves OUT alone when nothing changed.
execute_process(COMMAND git -C ${SRC} describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE TILESCOPE_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR TILESCOPE_GIT_REVISION STREQUAL "")
  set(TILESCOPE_GIT_REVISION "unknown")
endif()
configure_file(${IN} ${OUT} @ONLY)
