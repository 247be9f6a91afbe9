# Included by ctest (through the file cuzk_catch_tests writes): lists the test
# cases of one Catch2 program and declares them as tests. See
# CuzkCatchTests.cmake. Inputs: CUZK_DISCOVER_TARGET, _EXE, _LIST, _DIR, _CMAKE.

# A test that fails, standing for a program whose tests could not be listed.
macro(_cuzk_discovery_failed why)
  message("cuzk: no tests from ${CUZK_DISCOVER_TARGET}: ${why}")
  add_test("${CUZK_DISCOVER_TARGET}:DISCOVERY_FAILED" "${CUZK_DISCOVER_CMAKE}" -E false)
  set_tests_properties("${CUZK_DISCOVER_TARGET}:DISCOVERY_FAILED" PROPERTIES LABELS "unit;gpu")
endmacro()

# Lists the cases of one test spec into `script`; sets `failure` when the
# listing fails. Catch2 v2 exits with the number of cases listed (mod 256),
# which also checks that the output was read whole.
function(_cuzk_list_cases spec prefix labels extra_props)
  execute_process(COMMAND "${CUZK_DISCOVER_EXE}" "${spec}" --list-test-names-only
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                  WORKING_DIRECTORY "${CUZK_DISCOVER_DIR}" TIMEOUT 600)
  # Names may hold ; [ ] (list syntax to CMake): carried encoded through the list.
  string(REPLACE ";" "<cuzk:semi>" out "${out}")
  string(REPLACE "[" "<cuzk:open>" out "${out}")
  string(REPLACE "]" "<cuzk:close>" out "${out}")
  string(REGEX MATCHALL "[^\n]+" names "${out}")
  list(LENGTH names n)
  math(EXPR expect "${n} % 256")
  if(NOT rc MATCHES "^[0-9]+$" OR NOT rc EQUAL expect)
    set(failure "listing '${spec}' gave ${n} names and exit status '${rc}' ${err}" PARENT_SCOPE)
    return()
  endif()
  set(s "${script}")
  foreach(name IN LISTS names)
    string(REPLACE "<cuzk:semi>" ";" name "${name}")
    string(REPLACE "<cuzk:open>" "[" name "${name}")
    string(REPLACE "<cuzk:close>" "]" name "${name}")
    # Catch2 reads , [ ] in a test name as spec syntax: escape them.
    string(REGEX REPLACE "([],[])" "\\\\\\1" arg "${name}")
    string(APPEND s "add_test([==[${prefix}${name}]==] [==[${CUZK_DISCOVER_EXE}]==] [==[${arg}]==])\n"
                    "set_tests_properties([==[${prefix}${name}]==] PROPERTIES LABELS ${labels} "
                    "WORKING_DIRECTORY [==[${CUZK_DISCOVER_DIR}]==] ${extra_props})\n")
  endforeach()
  set(script "${s}" PARENT_SCOPE)
endfunction()

if(NOT EXISTS "${CUZK_DISCOVER_EXE}")
  _cuzk_discovery_failed("${CUZK_DISCOVER_EXE} is not built")
  return()
endif()
if(NOT EXISTS "${CUZK_DISCOVER_LIST}" OR "${CUZK_DISCOVER_EXE}" IS_NEWER_THAN "${CUZK_DISCOVER_LIST}")
  set(script "")
  set(failure "")
  set(t "${CUZK_DISCOVER_TARGET}")
  _cuzk_list_cases("~[slow]~[gpu]" "${t}:" unit "SKIP_REGULAR_EXPRESSION SKIPPED:")
  if(NOT failure)
    _cuzk_list_cases("[slow]" "${t}:slow:" slow "")
  endif()
  if(NOT failure)
    _cuzk_list_cases("[gpu]" "${t}:gpu:" gpu "SKIP_REGULAR_EXPRESSION SKIPPED:")
  endif()
  if(failure)
    file(REMOVE "${CUZK_DISCOVER_LIST}")
    _cuzk_discovery_failed("${failure}")
    return()
  endif()
  file(WRITE "${CUZK_DISCOVER_LIST}" "${script}")
endif()
include("${CUZK_DISCOVER_LIST}")
