# cmake -DLIB=<libcuzk.so> -DHEADERS=<cuzk.h>;<cuzk_filecoin.h> [-DNM=<nm>] -P check_symbols.cmake
#
# Fails unless the dynamic symbols that LIB defines and exports are exactly
# the functions the HEADERS (a list: the C ABI's headers) declare with
# CUZK_API, each in one header only (the lists printed on failure).
if(NOT NM)
  set(NM nm)
endif()
if(NOT HEADERS)
  message(FATAL_ERROR "check_symbols.cmake: no HEADERS given")
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

# Declared: "CUZK_API <type> <name>(" with comments removed, header by header.
set(declared "")
set(names "")
set(counts "")
foreach(header IN LISTS HEADERS)
  get_filename_component(name ${header} NAME)
  file(READ ${header} hdr)
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" hdr "${hdr}")
  string(REGEX MATCHALL "\nCUZK_API [^;(#]*\\(" decls "${hdr}")
  set(n 0)
  foreach(d IN LISTS decls)
    if(d MATCHES "([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*\\($")
      set(fn "${CMAKE_MATCH_1}")
      list(FIND declared "${fn}" seen)
      if(NOT seen EQUAL -1)
        message(FATAL_ERROR "${fn} is declared twice (again in ${name})")
      endif()
      list(APPEND declared "${fn}")
      math(EXPR n "${n} + 1")
    endif()
  endforeach()
  if(n EQUAL 0)
    message(FATAL_ERROR "no function found in ${header}: the parser is broken")
  endif()
  list(APPEND names "${name}")
  list(APPEND counts "${name} ${n}")
endforeach()
list(SORT declared)

list(LENGTH declared n_declared)
if(n_declared LESS 10)
  message(FATAL_ERROR "only ${n_declared} functions found in ${HEADERS}: the parser is broken")
endif()
string(REPLACE ";" ", " names "${names}")
string(REPLACE ";" ", " counts "${counts}")

set(missing ${declared})
list(REMOVE_ITEM missing ${exported})
set(extra ${exported})
list(REMOVE_ITEM extra ${declared})
if(missing OR extra)
  string(REPLACE ";" "\n  " d "${declared}")
  string(REPLACE ";" "\n  " e "${exported}")
  string(REPLACE ";" " " m "${missing}")
  string(REPLACE ";" " " x "${extra}")
  message(FATAL_ERROR "exported symbols differ from ${names}\n"
                      "declared in the headers but not exported: ${m}\n"
                      "exported but not declared: ${x}\n"
                      "declared (${n_declared}: ${counts}):\n  ${d}\nexported:\n  ${e}\n")
endif()
message(STATUS "libcuzk exports exactly the ${n_declared} functions of ${names} (${counts})")
