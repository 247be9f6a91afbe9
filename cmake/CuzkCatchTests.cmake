# cuzk_catch_tests(<target>): registers the Catch2 test cases of a test
# program with CTest, discovered when ctest runs (not after the build), so
# that a build under load cannot leave a program with a stale or empty list.
#
# Each program gives three sets of tests, named <target>:<case>,
# <target>:slow:<case> and <target>:gpu:<case>, labelled unit, slow and gpu
# after the tags [slow] and [gpu]. The list is cached beside the program and
# made again whenever the program is newer. A program that is missing, or
# whose listing fails (a crash, a wrong count), becomes one failing test
# <target>:DISCOVERY_FAILED instead of silently contributing no tests.
set(_CUZK_CATCH_DISCOVER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/CuzkCatchDiscover.cmake)

function(cuzk_catch_tests target)
  set(dir ${CMAKE_CURRENT_BINARY_DIR})
  set(include_file ${dir}/${target}_discover.cmake)
  file(GENERATE OUTPUT ${include_file} CONTENT
"set(CUZK_DISCOVER_TARGET [==[${target}]==])
set(CUZK_DISCOVER_EXE [==[$<TARGET_FILE:${target}>]==])
set(CUZK_DISCOVER_LIST [==[${dir}/${target}_tests.cmake]==])
set(CUZK_DISCOVER_DIR [==[${dir}]==])
set(CUZK_DISCOVER_CMAKE [==[${CMAKE_COMMAND}]==])
include([==[${_CUZK_CATCH_DISCOVER_SCRIPT}]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
