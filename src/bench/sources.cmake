# Source lists of the bench program, shared by the LLVM build (CMakeLists.txt here) and the GNU
# sub-build (gnu/CMakeLists.txt), so both programs are made of exactly the same code.
set(_bench ${CMAKE_CURRENT_LIST_DIR})
# The OpenMP-free part the programs need (no fmt: the GNU sub-build stays light).
set(OMPSCOPE_BENCH_MEASUREMENT_CORE_SOURCES
  ${_bench}/core/statistics.cpp
  ${_bench}/core/clock_offset.cpp
  ${_bench}/core/window_sync.cpp
  ${_bench}/core/constructs.cpp
  ${_bench}/core/bench_json.cpp)
# The OpenMP-free part only the CLI needs: run plan and renderers.
set(OMPSCOPE_BENCH_CLI_SIDE_SOURCES
  ${_bench}/core/run_plan.cpp
  ${_bench}/core/extrap_writer.cpp
  ${_bench}/core/results_table.cpp
  ${_bench}/core/bench_cache.cpp)
# The program itself, compiled with -fopenmp by the compiler of its runtime.
set(OMPSCOPE_BENCH_PROGRAM_SOURCES
  ${_bench}/program/main.cpp
  ${_bench}/program/tick_clock.cpp
  ${_bench}/program/delay_work.cpp
  ${_bench}/program/epcc_method.cpp
  ${_bench}/program/epcc_constructs.cpp
  ${_bench}/program/direct_method.cpp
  ${_bench}/program/direct_constructs.cpp)
# The project's clock (common/clock.h): the LLVM build links ompscope_common, the GNU sub-build
# compiles it itself.
set(OMPSCOPE_BENCH_COMMON_SOURCES ${_bench}/../common/clock.cpp)
unset(_bench)
