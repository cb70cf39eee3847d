// The CLI's allocator (mimalloc, linked by src/cli/CMakeLists.txt, which defines
// OMPSCOPE_WITH_MIMALLOC for what links it) keeps memory that was freed for 25 ms before it
// returns it to the system (its decommit delay), where the next allocations may reuse it. A phase
// that frees one structure while it builds another of other sizes (the trace model consuming the
// timeline, build_trace_model.h) then holds both: 10^8 events' trace held 7.1 GB where the
// timeline alone took 5.3. Without mimalloc (the sanitizer builds) this does nothing.
#pragma once
#ifdef OMPSCOPE_WITH_MIMALLOC
#include <fcntl.h>
#include <mimalloc.h>
#include <unistd.h>
#endif

namespace ompscope {

// Asks the kernel for 2 MiB pages (transparent huge pages, where its policy is "madvise") for the
// memory the analysis allocates from here on. Where a page's first touch costs 10 us (a VM whose
// host backs guest memory lazily), those touches were most of a report's time: many_barriers'
// `report` took 7 314 faults and 126 ms CPU, 480 faults and 44 ms with 2 MiB pages; a 10 M-event
// log's, 5.95 -> 4.74 CPU-s, for a peak 5% higher (BENCHMARKS.md, Session 2026-11-29 (6)). mimalloc reads the option once, when it starts,
// which is before any constructor of the executable: call it from the executable's
// .preinit_array (src/cli/main.cpp), which the loader runs before every library's initialiser.
inline void use_large_pages() {
#ifdef OMPSCOPE_WITH_MIMALLOC
  // mimalloc takes explicit huge pages (MAP_HUGETLB) before transparent ones: on a node whose
  // administrator reserved some (vm.nr_hugepages), they are the jobs', not ompscope's. No malloc
  // here (the allocator has not started): open and read.
  char reserved[32] = {};
  const int fd = open("/proc/sys/vm/nr_hugepages", O_RDONLY | O_CLOEXEC);
  const ssize_t n = fd >= 0 ? read(fd, reserved, sizeof reserved - 1) : -1;
  if (fd >= 0) close(fd);
  if (n <= 0 || reserved[0] != '0' || (reserved[1] != '\n' && reserved[1] != '\0')) return;
  mi_option_set(mi_option_large_os_pages, 1);
  // mimalloc commits a thread's first segment lazily, 4 KiB at a time and never in 2 MiB pages
  // (its eager_commit_delay, there for programs of many short threads): the helper thread that
  // analyses `scale`'s runs beside the main one took 6 600 faults and 4x the CPU on its first log
  // (many_barriers, 115 against 30 ms). ompscope's threads are few and do the heavy work.
  mi_option_set(mi_option_eager_commit_delay, 0);
#endif
}

// From here on, new memory comes in 4 KiB pages. A trace frees its timeline while it builds the
// trace model (build_trace_model.h); mimalloc never returns memory it took in 2 MiB pages to the
// system, so the process held both (`trace -- fib_tasks 25`: 155-160 MB peak, 217 MB in 2 MiB
// pages). Call before the trace's first large allocation.
inline void keep_pages_small() {
#ifdef OMPSCOPE_WITH_MIMALLOC
  mi_option_set(mi_option_large_os_pages, 0);
#endif
}

// From here on, memory freed is returned to the system at once.
inline void return_freed_memory_at_once() {
#ifdef OMPSCOPE_WITH_MIMALLOC
  mi_option_set(mi_option_decommit_delay, 0);
#endif
}

}  // namespace ompscope
