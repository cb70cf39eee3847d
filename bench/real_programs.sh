#!/usr/bin/env bash
# Public OpenMP programs under `ompscope scale -t 1,2 -r 3`, as a new user would run them: per
# program, the time lost at 2 threads, the share of it the causes explain, and the top finding.
#
# usage: bench/real_programs.sh BUILD_DIR [SOURCES_DIR] [WORK_DIR] [PROGRAM...]
#   BUILD_DIR    an ompscope build (bin/ompscope)
#   SOURCES_DIR  the programs' sources, unpacked (default /tmp/real): nothing is downloaded here
#   WORK_DIR     where they are built and their reports written (default /tmp/ompscope-real)
#   PROGRAM      only these (names below); default all
#
# Programs and inputs (a few seconds per run on a 2-vCPU VM):
#   lulesh   LULESH 2.0 (github.com/LLNL/LULESH), -s 25 -i 60, clang++ -fopenmp, no MPI
#   npb-cg   NPB-CPP's NPB-OMP CG class W (github.com/GMAP/NPB-CPP), clang++ -fopenmp
#   npb-mg   NPB-CPP's NPB-OMP MG class W
#   npb-ft   NPB-CPP's NPB-OMP FT class S
#   bots-sort  BOTS sort (github.com/bsc-pm/bots), -n 4000000, clang -fopenmp
# Other programs are added as one more `case` below and one more name in ALL.
set -euo pipefail

BUILD=${1:?usage: bench/real_programs.sh BUILD_DIR [SOURCES_DIR] [WORK_DIR] [PROGRAM...]}
SOURCES=${2:-/tmp/real}
WORK=${3:-/tmp/ompscope-real}
shift $(( $# < 3 ? $# : 3 ))
ALL=(lulesh npb-cg npb-mg npb-ft bots-sort)
PROGRAMS=("${@:-${ALL[@]}}")
[ ${#PROGRAMS[@]} -gt 0 ] || PROGRAMS=("${ALL[@]}")
OMPSCOPE=$(realpath "$BUILD")/bin/ompscope
[ -x "$OMPSCOPE" ] || { echo "real_programs: no ompscope at $OMPSCOPE" >&2; exit 2; }
CXX=${CXX:-clang++-14}
CC=${CC:-clang-14}
mkdir -p "$WORK"

need() {  # need DIR WHAT: the sources must be there already
  [ -e "$SOURCES/$1" ] && return 0
  echo "real_programs: $SOURCES/$1 is missing: fetch $2 and unpack it there" >&2
  return 1
}

# build NAME → prints the command line to run
build() {
  case $1 in
    lulesh)
      need LULESH "https://github.com/LLNL/LULESH (git clone)" || return 1
      local exe=$WORK/lulesh/lulesh
      mkdir -p "$WORK/lulesh"
      [ -x "$exe" ] || (cd "$SOURCES/LULESH" && $CXX -O2 -g -fopenmp -DUSE_MPI=0 lulesh.cc lulesh-comm.cc \
        lulesh-viz.cc lulesh-util.cc lulesh-init.cc -o "$exe") >&2
      echo "$exe -s 25 -i 60"
      ;;
    npb-cg|npb-mg|npb-ft)
      need NPB-CPP/NPB-OMP "https://github.com/GMAP/NPB-CPP (git clone)" || return 1
      local bench=${1#npb-} class
      case $bench in cg|mg) class=W ;; ft) class=S ;; esac
      local tree=$WORK/NPB-OMP
      [ -d "$tree" ] || cp -r "$SOURCES/NPB-CPP/NPB-OMP" "$tree"
      local exe=$tree/bin/$bench.$class
      if [ ! -x "$exe" ]; then
        mkdir -p "$tree/bin"
        (cd "$tree/${bench^^}" && make CC="$CXX -std=c++14" UCC="$CXX -fopenmp" \
          CFLAGS="-O3 -g -fopenmp -mcmodel=medium" CLINKFLAGS="-O3 -g -fopenmp -mcmodel=medium" \
          CLASS=$class) >&2
      fi
      echo "$exe"
      ;;
    bots-sort)
      need bots/omp-tasks/sort "https://github.com/bsc-pm/bots (git clone)" || return 1
      local exe=$WORK/bots/sort
      mkdir -p "$WORK/bots"
      [ -x "$exe" ] || $CC -O2 -g -fopenmp -I"$SOURCES/bots/common" -I"$SOURCES/bots/omp-tasks/sort" \
        -DCC="\"$CC\"" -DCFLAGS="\"-O2\"" -DLD="\"$CC\"" -DLDFLAGS="\"\"" -DCDATE="\"-\"" -DCTIME="\"-\"" \
        "$SOURCES/bots/common/bots_main.c" "$SOURCES/bots/common/bots_common.c" \
        "$SOURCES/bots/omp-tasks/sort/sort.c" -o "$exe" -lm >&2
      echo "$exe -n 4000000"
      ;;
    *) echo "real_programs: no program '$1' (known: ${ALL[*]})" >&2; return 1 ;;
  esac
}

printf '%-10s %10s %10s %10s  %s\n' program "T(1)" "T(2)" "lost@2" "explained  top finding at 2 threads"
for name in "${PROGRAMS[@]}"; do
  if ! cmd=$(build "$name"); then
    printf '%-10s %s\n' "$name" "not built (above)"
    continue
  fi
  out=$WORK/scale-$name
  # shellcheck disable=SC2086  # the command line is words on purpose
  if ! (cd "$WORK" && "$OMPSCOPE" scale -t 1,2 -r 3 -o "$out" -- $cmd > "$out.txt" 2>&1); then
    printf '%-10s %s\n' "$name" "scale failed: see $out.txt"
    continue
  fi
  python3 - "$name" "$out/report.json" <<'EOF'
import json, sys
name, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
p = r["program"]
t1, t2 = p["time_s"].get("1", 0), p["time_s"].get("2", 0)
lost, rest = p.get("time_lost_s", {}).get("2", 0), p.get("unexplained_s", {}).get("2", 0)
share = f"{(1 - rest / lost) * 100:.0f}%" if lost > 0 else "-"
best = None
for reg in r["regions"]:
    for q in reg["problems"]:
        if q["threads"] == 2 and (best is None or q["gain_s"] > best[1]["gain_s"]):
            best = (reg, q)
top = "none"
if best:
    reg, q = best
    where = f"{reg['file'].split('/')[-1]}:{reg['line']}" if reg.get("file") else reg.get("function", reg["id"])
    top = f"{q['kind']} {q['gain_s'] * 1e3:.0f} ms at {where}"
print(f"{name:<10} {t1 * 1e3:8.0f}ms {t2 * 1e3:8.0f}ms {lost * 1e3:8.0f}ms  {share:>9}  {top}")
EOF
done
