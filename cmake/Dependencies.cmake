# Every third-party piece ompscope uses, found in one place. scripts/setup.sh installs them on
# Debian; elsewhere, point CMAKE_PREFIX_PATH (or the <Package>_ROOT variables) at them. A missing
# part stops the configuration with one sentence naming it.
function(ompscope_require found what debian_package)
  if(NOT ${found})
    message(FATAL_ERROR "ompscope needs ${what}, which was not found: install it (Debian: "
                        "${debian_package}; scripts/setup.sh installs everything) or add its prefix to CMAKE_PREFIX_PATH.")
  endif()
endfunction()

find_package(OpenMP QUIET)
ompscope_require(OpenMP_C_FOUND "a C compiler with OpenMP (-fopenmp)" "libomp-dev for clang")
find_package(nlohmann_json 3 QUIET)
ompscope_require(nlohmann_json_FOUND "nlohmann_json 3" nlohmann-json3-dev)
find_package(CLI11 CONFIG QUIET)
ompscope_require(CLI11_FOUND "CLI11" libcli11-dev)
find_package(fmt QUIET)
ompscope_require(fmt_FOUND "fmt" libfmt-dev)
find_package(PkgConfig QUIET)
ompscope_require(PKG_CONFIG_FOUND "pkg-config" pkg-config)
pkg_check_modules(OTF2 QUIET IMPORTED_TARGET otf2)
ompscope_require(OTF2_FOUND "OTF2 (pkg-config otf2)" libotf2-trace-dev)
pkg_check_modules(LIBELF QUIET IMPORTED_TARGET libelf)
ompscope_require(LIBELF_FOUND "libelf (pkg-config libelf)" libelf-dev)
find_package(Threads REQUIRED)
# The CLI's allocator. The analysis builds and frees millions of small objects per run (a task
# node's interval sets, per-instance maps), where glibc's malloc took 36% of a report's CPU
# (unlink_chunk, malloc_consolidate) and mimalloc a fraction of it (BENCHMARKS.md, "Session
# 2026-11-28"). Sanitizer builds keep the sanitizer's own allocator, which must see every block.
if(NOT OMPSCOPE_SANITIZE)
  find_package(mimalloc 2 CONFIG QUIET)
  ompscope_require(mimalloc_FOUND "mimalloc 2" libmimalloc-dev)
endif()
# Links it into `target` (the CLI, and the benches that measure what the CLI allocates): linked for
# its malloc and free, which take the place of glibc's in the whole process (it comes before libc
# in the lookup order). No symbol of its own need be called, so the linker must keep it where it
# drops unused libraries (--as-needed). OMPSCOPE_WITH_MIMALLOC tells common/allocator.h.
function(ompscope_link_allocator target)
  if(TARGET mimalloc)
    target_link_options(${target} PRIVATE "LINKER:--no-as-needed")
    target_link_libraries(${target} PRIVATE mimalloc)
    target_compile_definitions(${target} PRIVATE OMPSCOPE_WITH_MIMALLOC=1)
  endif()
endfunction()

# LLVM's OpenMP: omp-tools.h (OMPT) to build the tool, libomp to run GCC-built programs on.
# Searched in: OMPSCOPE_LLVM_ROOT, OpenMP_ROOT, the LLVM of the compiler when it is clang, the
# system's library directories, then Debian's /usr/lib/llvm-NN (newest first). LLVM 14 to 19
# have been tried (docs/runtime-quirks.md).
set(OMPSCOPE_LLVM_ROOT "" CACHE PATH "LLVM installation whose omp-tools.h and libomp ompscope uses (e.g. /usr/lib/llvm-19)")
# A path the user gave that is wrong stops here: searching on would quietly take another LLVM's
# header, or fail on a missing file deep in the configuration.
if(OMPSCOPE_LLVM_ROOT AND NOT IS_DIRECTORY "${OMPSCOPE_LLVM_ROOT}")
  message(FATAL_ERROR "OMPSCOPE_LLVM_ROOT is ${OMPSCOPE_LLVM_ROOT}, which is not a directory: give the prefix of an LLVM installation (e.g. /usr/lib/llvm-19).")
endif()
if(OMPSCOPE_OMPT_HEADER_DIR AND NOT EXISTS "${OMPSCOPE_OMPT_HEADER_DIR}/omp-tools.h")
  message(FATAL_ERROR "OMPSCOPE_OMPT_HEADER_DIR is ${OMPSCOPE_OMPT_HEADER_DIR}, which holds no omp-tools.h: give the directory of LLVM's omp-tools.h, or leave it unset to search for it.")
endif()
set(_llvm_roots ${OMPSCOPE_LLVM_ROOT} $ENV{OMPSCOPE_LLVM_ROOT} ${OpenMP_ROOT} $ENV{OpenMP_ROOT})
set(_ompt_dirs)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-resource-dir
                  OUTPUT_VARIABLE _resource_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_resource_dir)
    cmake_path(GET _resource_dir PARENT_PATH _clang_lib)       # <llvm>/lib/clang
    cmake_path(GET _clang_lib PARENT_PATH _clang_lib)          # <llvm>/lib
    cmake_path(GET _clang_lib PARENT_PATH _clang_prefix)       # <llvm>
    list(APPEND _llvm_roots ${_clang_prefix})
  endif()
endif()
set(_debian_llvm_roots)
foreach(v 19 18 17 16 15 14)
  list(APPEND _debian_llvm_roots /usr/lib/llvm-${v})
endforeach()
set(_ompt_fallback_dirs)
foreach(root IN LISTS _llvm_roots _debian_llvm_roots)
  file(GLOB _resource_includes LIST_DIRECTORIES true "${root}/lib/clang/*/include")
  if(root IN_LIST _llvm_roots)
    list(APPEND _ompt_dirs ${root}/include/openmp ${root}/include ${_resource_includes})
  else()
    list(APPEND _ompt_fallback_dirs ${root}/include/openmp ${_resource_includes})
  endif()
endforeach()
find_path(OMPSCOPE_OMPT_HEADER_DIR omp-tools.h HINTS ${_ompt_dirs} PATHS ${_ompt_fallback_dirs}
          PATH_SUFFIXES openmp DOC "directory of omp-tools.h (the OMPT interface)")
ompscope_require(OMPSCOPE_OMPT_HEADER_DIR "omp-tools.h from LLVM's OpenMP (give -DOMPSCOPE_LLVM_ROOT=<llvm prefix>)"
                 libomp-14-dev)
# Only omp-tools.h from there: the directory is often clang's resource directory, whose
# stddef.h and omp.h must not reach a GCC compilation.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/ompt-include)
file(COPY "${OMPSCOPE_OMPT_HEADER_DIR}/omp-tools.h" DESTINATION ${CMAKE_BINARY_DIR}/ompt-include)
set(OMPT_INCLUDE_DIR ${CMAKE_BINARY_DIR}/ompt-include)

set(_libomp_hints)
foreach(root IN LISTS _llvm_roots)
  list(APPEND _libomp_hints ${root}/lib ${root}/lib64)
endforeach()
set(_libomp_fallbacks)
foreach(root IN LISTS _debian_llvm_roots)
  list(APPEND _libomp_fallbacks ${root}/lib)
endforeach()
find_library(OMPSCOPE_LIBOMP NAMES libomp.so.5 omp HINTS ${_libomp_hints} PATHS ${_libomp_fallbacks}
             DOC "LLVM's OpenMP runtime, which GCC-built programs are run on")
ompscope_require(OMPSCOPE_LIBOMP "LLVM's OpenMP runtime libomp (give -DOMPSCOPE_LLVM_ROOT=<llvm prefix>)" libomp5-14)
message(STATUS "OMPT header: ${OMPSCOPE_OMPT_HEADER_DIR}/omp-tools.h; libomp: ${OMPSCOPE_LIBOMP}")

# libbacktrace: BSD-licensed symboliser shipped with GCC as a static PIC archive.
find_program(OMPSCOPE_GCC_DRIVER NAMES gcc gcc-12 DOC "GCC, asked where its libbacktrace is")
if(OMPSCOPE_GCC_DRIVER)
  execute_process(COMMAND ${OMPSCOPE_GCC_DRIVER} -print-file-name=libbacktrace.a OUTPUT_VARIABLE _bt_lib OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${OMPSCOPE_GCC_DRIVER} -print-file-name=include OUTPUT_VARIABLE _gcc_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
if(EXISTS "${_bt_lib}" AND EXISTS "${_gcc_inc}/backtrace.h")
  set(_bt_found TRUE)
endif()
ompscope_require(_bt_found "GCC's libbacktrace (libbacktrace.a and backtrace.h)" libgcc-12-dev)
# A copy whose dl_iterate_phdr is ompscope_backtrace_phdrs (analysis/symbolizer.cpp): libbacktrace
# reads the debug info of every library of the process it runs in (this one: libc, libm, with
# libc6-dbg's 5 MB of compressed DWARF) into each state it makes, one per module of the analysed
# program: ~190 ms of every command on a machine with libc6-dbg, and none of them ours to resolve.
find_program(OMPSCOPE_OBJCOPY NAMES objcopy DOC "binutils' objcopy, to rename one symbol of libbacktrace.a")
ompscope_require(OMPSCOPE_OBJCOPY "binutils' objcopy" binutils)
set(_bt_own ${CMAKE_BINARY_DIR}/libbacktrace-ompscope.a)
execute_process(COMMAND ${OMPSCOPE_OBJCOPY} --redefine-sym dl_iterate_phdr=ompscope_backtrace_phdrs "${_bt_lib}" "${_bt_own}"
                RESULT_VARIABLE _bt_copied)
if(NOT _bt_copied EQUAL 0)
  message(FATAL_ERROR "objcopy could not copy ${_bt_lib} to ${_bt_own}")
endif()
add_library(ompscope_libbacktrace STATIC IMPORTED)
set_target_properties(ompscope_libbacktrace PROPERTIES IMPORTED_LOCATION "${_bt_own}")
# Only backtrace.h from GCC's include dir: its other headers (omp.h) must not shadow clang's.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/libbacktrace-include)
file(COPY "${_gcc_inc}/backtrace.h" DESTINATION ${CMAKE_BINARY_DIR}/libbacktrace-include)
target_include_directories(ompscope_libbacktrace INTERFACE ${CMAKE_BINARY_DIR}/libbacktrace-include)

# Test- and benchmark-only dependencies.
if(BUILD_TESTING)
  find_package(GTest QUIET)
  ompscope_require(GTest_FOUND "GoogleTest and GoogleMock to build the tests (or -DBUILD_TESTING=OFF)"
                   "libgtest-dev libgmock-dev")
endif()
if(OMPSCOPE_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  ompscope_require(benchmark_FOUND "Google Benchmark to build bench/ (or -DOMPSCOPE_BUILD_BENCHMARKS=OFF)"
                   libbenchmark-dev)
endif()
