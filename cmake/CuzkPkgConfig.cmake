# pkg-config files for the installed tree, written beside the CMake package:
#   cuzk.pc       the static C++20 library: its archive(s) by full path (the
#                 shared C ABI is also named libcuzk, so -lcuzk would pick
#                 libcuzk.so), fmt and libcrypto, and CUDA's static runtime
#                 when the library was built with CUDA. Compile with -std=c++20.
#   cuzk-capi.pc  the C ABI: cuzk.h, cuzk_filecoin.h and -lcuzk (libcuzk.so);
#                 only when built.
# and, for the build tree only, cuzk-capi-uninstalled.pc: the headers from the
# sources and libcuzk.so from the build, with an rpath to it. pkg-config
# prefers it to cuzk-capi.pc when PKG_CONFIG_PATH=<build>/pkgconfig, so the Go
# and Rust bindings (#cgo pkg-config: cuzk-capi; cuzk-sys's build.rs) build
# against a build tree without an install (test/hosts).
# The files locate the prefix from their own directory (${pcfiledir}), so an
# install with `cmake --install --prefix …` is found wherever it lands.
set(_cuzk_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH _cuzk_pc_up /cuzk_root/${_cuzk_pc_dir} /cuzk_root)
string(REGEX REPLACE "/$" "" _cuzk_pc_up "${_cuzk_pc_up}")
set(_cuzk_pc_head "prefix=\${pcfiledir}/${_cuzk_pc_up}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}
")
set(_cuzk_static "${CMAKE_STATIC_LIBRARY_PREFIX}cuzk${CMAKE_STATIC_LIBRARY_SUFFIX}")
set(_cuzk_pc_libs "\${libdir}/${_cuzk_static}")
if(CUZK_HAVE_CUDA)
  set(_cuzk_kernels "${CMAKE_STATIC_LIBRARY_PREFIX}cuzk_kernels${CMAKE_STATIC_LIBRARY_SUFFIX}")
  string(APPEND _cuzk_pc_libs " \${libdir}/${_cuzk_kernels} -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt")
endif()
string(APPEND _cuzk_pc_libs " -pthread")

file(WRITE ${PROJECT_BINARY_DIR}/pkgconfig/cuzk.pc "${_cuzk_pc_head}
Name: cuzk
Description: ${PROJECT_DESCRIPTION} (static C++20 library)
Version: ${PROJECT_VERSION}
Requires: fmt libcrypto
Cflags: -I\${includedir}
Libs: ${_cuzk_pc_libs}
")
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/cuzk.pc DESTINATION ${_cuzk_pc_dir})

if(TARGET cuzk_capi)
  file(WRITE ${PROJECT_BINARY_DIR}/pkgconfig/cuzk-capi.pc "${_cuzk_pc_head}
Name: cuzk-capi
Description: C ABI of cuzk (libcuzk.so, cuzk.h, cuzk_filecoin.h)
Version: ${PROJECT_VERSION}
Cflags: -I\${includedir}
Libs: -L\${libdir} -lcuzk
")
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/cuzk-capi.pc DESTINATION ${_cuzk_pc_dir})
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/pkgconfig/cuzk-capi-uninstalled.pc CONTENT "libdir=$<TARGET_FILE_DIR:cuzk_capi>
includedir=${PROJECT_SOURCE_DIR}/capi

Name: cuzk-capi
Description: C ABI of cuzk (libcuzk.so, cuzk.h, cuzk_filecoin.h), from the build tree
Version: ${PROJECT_VERSION}
Cflags: -I\${includedir}
Libs: -L\${libdir} -lcuzk -Wl,-rpath,\${libdir}
")
else()
  file(REMOVE ${PROJECT_BINARY_DIR}/pkgconfig/cuzk-capi.pc ${PROJECT_BINARY_DIR}/pkgconfig/cuzk-capi-uninstalled.pc)
endif()
