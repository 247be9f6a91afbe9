# cmake -DLIB=<libcuzk.so> -DHEADER=<cuzk.h> [-DNM=<nm>] -P check_symbols.cmake
#
# Fails unless the dynamic symbols that LIB defines and exports are exactly
# the functions HEADER declares with CUZK_API (both lists printed on failure).
if(NOT NM)
  set(NM nm)
endif()
execute_process(COMMAND ${NM} -D --defined-only ${LIB}
                OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc ERROR_VARIABLE nm_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIB} failed (${rc}): ${nm_err}")
endif()

# Exported: every defined dynamic symbol except the version-node marker
# (type A) that a version script adds.
string(REPLACE "\n" ";" lines "${nm_out}")
set(exported "")
foreach(l IN LISTS lines)
  if(l MATCHES "^[0-9a-fA-F]* *([A-Za-z]) ([^ @]+)")
    set(type "${CMAKE_MATCH_1}")
    set(sym "${CMAKE_MATCH_2}")
    if(NOT type STREQUAL "A")
      list(APPEND exported "${sym}")
    endif()
  endif()
endforeach()
list(REMOVE_DUPLICATES exported)
list(SORT exported)

# Declared: "CUZK_API <type> <name>(" with comments removed.
file(READ ${HEADER} hdr)
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" hdr "${hdr}")
string(REGEX MATCHALL "\nCUZK_API [^;(#]*\\(" decls "${hdr}")
set(declared "")
foreach(d IN LISTS decls)
  if(d MATCHES "([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*\\($")
    list(APPEND declared "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(REMOVE_DUPLICATES declared)
list(SORT declared)

list(LENGTH declared n_declared)
if(n_declared LESS 10)
  message(FATAL_ERROR "only ${n_declared} functions found in ${HEADER}: the parser is broken")
endif()

set(missing ${declared})
list(REMOVE_ITEM missing ${exported})
set(extra ${exported})
list(REMOVE_ITEM extra ${declared})
if(missing OR extra)
  string(REPLACE ";" "\n  " d "${declared}")
  string(REPLACE ";" "\n  " e "${exported}")
  string(REPLACE ";" " " m "${missing}")
  string(REPLACE ";" " " x "${extra}")
  message(FATAL_ERROR "exported symbols differ from cuzk.h\n"
                      "declared in the header but not exported: ${m}\n"
                      "exported but not declared: ${x}\n"
                      "declared (${n_declared}):\n  ${d}\nexported:\n  ${e}\n")
endif()
message(STATUS "libcuzk exports exactly the ${n_declared} functions of cuzk.h")
