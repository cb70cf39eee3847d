# Every third-party piece ompscope uses, found in one place. scripts/setup.sh installs them.
find_package(OpenMP REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(fmt REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(OTF2 REQUIRED IMPORTED_TARGET otf2)
find_package(Threads REQUIRED)

# OMPT's header lives in the compiler's resource directory (clang), or LLVM's include tree.
find_path(OMPT_INCLUDE_DIR omp-tools.h
  HINTS /usr/lib/llvm-14/lib/clang/14.0.6/include /usr/lib/llvm-14/include)
if(NOT OMPT_INCLUDE_DIR)
  message(FATAL_ERROR "omp-tools.h not found: install libomp-14-dev (scripts/setup.sh)")
endif()

# libbacktrace: BSD-licensed symboliser shipped with GCC as a static PIC archive.
execute_process(COMMAND gcc -print-file-name=libbacktrace.a OUTPUT_VARIABLE _bt_lib OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND gcc -print-file-name=include OUTPUT_VARIABLE _gcc_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${_bt_lib}" OR NOT EXISTS "${_gcc_inc}/backtrace.h")
  message(FATAL_ERROR "libbacktrace not found: install libgcc-12-dev (scripts/setup.sh)")
endif()
add_library(ompscope_libbacktrace STATIC IMPORTED)
set_target_properties(ompscope_libbacktrace PROPERTIES IMPORTED_LOCATION "${_bt_lib}")
# Only backtrace.h from GCC's include dir: its other headers (omp.h) must not shadow clang's.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/libbacktrace-include)
file(COPY "${_gcc_inc}/backtrace.h" DESTINATION ${CMAKE_BINARY_DIR}/libbacktrace-include)
target_include_directories(ompscope_libbacktrace INTERFACE ${CMAKE_BINARY_DIR}/libbacktrace-include)

# libomp: the runtime ompscope observes; GCC-built programs are redirected to it.
find_library(OMPSCOPE_LIBOMP NAMES omp.so.5 libomp.so.5 omp PATHS /usr/lib/llvm-14/lib REQUIRED)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
