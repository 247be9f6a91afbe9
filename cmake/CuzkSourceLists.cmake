# The build lists its sources by name (no globbing). So that a file added to
# the tree but not to its list cannot go unnoticed (a test program that is
# never built, a kernel that is never compiled), every list is recorded with
# the pattern of the files it should hold, and the test meta:source_lists
# (cmake/CheckSourceLists.cmake) compares the two when the tests run.
#
# cuzk_record_sources(<name> <GLOB|GLOB_RECURSE> <pattern> <file>...):
# pattern and files relative to the source tree's root.
function(cuzk_record_sources name mode pattern)
  string(REPLACE ";" " " files "${ARGN}")
  file(WRITE ${PROJECT_BINARY_DIR}/source-lists/${name}.cmake
       "set(mode ${mode})\nset(pattern \"${pattern}\")\nset(listed ${files})\n")
endfunction()
