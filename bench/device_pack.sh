#!/usr/bin/env bash
# Fill .dev/ with what bench/device_scaling.sh runs on a machine without our build or Debian's
# libraries: stripped binaries (bin/, lib/ beside it as the CLI expects), the test programs
# (prog/), the shared libraries they load (rt/: libomp 14, libgomp, the CLI's own) and GNU time.
# usage: bench/device_pack.sh [BUILD_DIR] [BOTS_FIB_BINARY]
set -euo pipefail
build=${1:-build}
pack=.dev
rm -rf "$pack" && mkdir -p "$pack/bin" "$pack/lib" "$pack/rt" "$pack/prog"
for b in ompscope ompscope-probe ompscope-bench-llvm ompscope-bench-gnu synthetic_log; do strip -o "$pack/bin/$b" "$build/bin/$b"; done
cp /usr/bin/time "$pack/bin/time"
for l in "$build"/lib/*.so; do strip -o "$pack/lib/$(basename "$l")" "$l"; done
for p in imbalanced_loop false_sharing many_barriers serial_phase jacobi_deps jacobi_deps_gcc fib_tasks fib_tasks_gcc \
         nqueens_tasks many_regions triad three_loops wavefront_loop two_functions alloc_touch_free replicated_work; do
  cp "$build/tests/programs/$p" "$pack/prog/"
done
cp "$build/bin/tiny_tasks" "$build/bin/loop_stencil" "$pack/prog/"
[ -z "${2:-}" ] || cp "$2" "$pack/prog/bots_fib_gcc"
ldd "$pack"/bin/* "$pack"/lib/* "$pack"/prog/* 2>/dev/null | awk '/=>/ { print $3 }' | sort -u |
  grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so' | xargs -I{} cp -L {} "$pack/rt/"
du -sh "$pack"
