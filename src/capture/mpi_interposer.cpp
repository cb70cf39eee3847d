// libompscope_mpi.so: times MPI calls through the MPI profiling interface (PMPI). Preloaded
// beside the tool library (libompscope.so or libompscope_gomp.so) only into programs that link an
// MPI library (docs/mpi.md); each wrapped call asks the tool for its entry time and hands the
// tool its record when it returns, so the record lands in the same per-thread log as the
// OpenMP records (event_record.h: MpiCall). Without a tool library loaded it only forwards.
#include <dlfcn.h>
#include <mpi.h>

#include <cstdint>

#include "common/event_record.h"
#include "common/launcher_rank.h"

extern char** environ;

#define OMPSCOPE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using Enter = uint64_t (*)();
using Leave = void (*)(uint64_t, unsigned);
Enter g_enter = nullptr;
Leave g_leave = nullptr;

// The tool libraries define these two (capture/ompt_tool.cpp, capture/gomp_interposer.cpp).
__attribute__((constructor)) void find_tool() {
  g_enter = reinterpret_cast<Enter>(dlsym(RTLD_DEFAULT, "ompscope_mpi_enter"));
  g_leave = reinterpret_cast<Leave>(dlsym(RTLD_DEFAULT, "ompscope_mpi_leave"));
  if (!g_enter || !g_leave) g_enter = nullptr;
}

// Times one call: the entry time before it, the record after it; a call made inside another
// wrapped call (a Fortran binding that calls the C function) is the outer one's, not recorded.
thread_local int t_depth = 0;
struct Timed {
  ompscope::MpiCallKind call;
  uint64_t entered;
  explicit Timed(ompscope::MpiCallKind c) : call(c), entered(t_depth++ == 0 && g_enter ? g_enter() : 0) {}
  ~Timed() {
    --t_depth;
    if (entered) g_leave(entered, static_cast<unsigned>(call));
  }
};

// A program's OpenMP runtime may start only at its first OpenMP call, after MPI_Init: started
// here first, the tool (which it loads) records MPI_Init too.
void start_openmp_runtime() {
  using MaxThreads = int (*)();
  if (auto f = reinterpret_cast<MaxThreads>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"))) f();
  if (!g_enter) find_tool();
}

using K = ompscope::MpiCallKind;

}  // namespace

// A singleton (a program calling MPI_Init with no launcher: no rank in its environment) forks
// Open MPI's daemon inside MPI_Init. libomp 14 started before that fork, with a place list
// (OMP_PLACES={0},{1}, what scale sets), aborts in the forked child ("free(): invalid size",
// then "orte_init failed"; docs/runtime-quirks.md): there the runtime starts after MPI_Init, whose
// time then is not recorded as MPI time. A rank started by a launcher records it.
bool started_by_launcher() {
  static const bool ranked = ompscope::launcher_rank(environ).rank >= 0;
  return ranked;
}

OMPSCOPE_EXPORT int MPI_Init(int* argc, char*** argv) {
  if (!started_by_launcher()) {
    const int rc = PMPI_Init(argc, argv);
    start_openmp_runtime();
    return rc;
  }
  start_openmp_runtime();
  Timed t(K::Init);
  return PMPI_Init(argc, argv);
}

OMPSCOPE_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  if (!started_by_launcher()) {
    const int rc = PMPI_Init_thread(argc, argv, required, provided);
    start_openmp_runtime();
    return rc;
  }
  start_openmp_runtime();
  Timed t(K::Init);
  return PMPI_Init_thread(argc, argv, required, provided);
}

OMPSCOPE_EXPORT int MPI_Finalize() {
  Timed t(K::Finalize);
  return PMPI_Finalize();
}

OMPSCOPE_EXPORT int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  Timed t(K::Send);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

OMPSCOPE_EXPORT int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                             MPI_Status* status) {
  Timed t(K::Recv);
  return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

OMPSCOPE_EXPORT int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                                 MPI_Comm comm, MPI_Status* status) {
  Timed t(K::Sendrecv);
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                       comm, status);
}

OMPSCOPE_EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Timed t(K::Probe);
  return PMPI_Probe(source, tag, comm, status);
}

OMPSCOPE_EXPORT int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  Timed t(K::Wait);
  return PMPI_Wait(request, status);
}

OMPSCOPE_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  Timed t(K::Waitall);
  return PMPI_Waitall(count, requests, statuses);
}

OMPSCOPE_EXPORT int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  Timed t(K::Waitany);
  return PMPI_Waitany(count, requests, index, status);
}

OMPSCOPE_EXPORT int MPI_Barrier(MPI_Comm comm) {
  Timed t(K::Barrier);
  return PMPI_Barrier(comm);
}

OMPSCOPE_EXPORT int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  Timed t(K::Bcast);
  return PMPI_Bcast(buf, count, type, root, comm);
}

OMPSCOPE_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                               MPI_Comm comm) {
  Timed t(K::Reduce);
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

OMPSCOPE_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                                  MPI_Comm comm) {
  Timed t(K::Allreduce);
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

OMPSCOPE_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Timed t(K::Gather);
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

OMPSCOPE_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Timed t(K::Allgather);
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

OMPSCOPE_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Timed t(K::Scatter);
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

OMPSCOPE_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Timed t(K::Alltoall);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

// The Fortran bindings (mpif.h and `use mpi`: mpi_allreduce_ & co., gfortran's names). Open MPI's
// call the PMPI_ C functions directly, so the C wrappers above never see a Fortran program's calls
// (measured with Open MPI 4.1: a gfortran rank's MPI_Allreduce wait was 0 s of MPI and all
// serial code). Each argument is passed by reference and none of these has a character argument
// (no hidden lengths), so a wrapper takes N pointers and forwards them to the next definition.
// A binding that does call the C MPI_ function is recorded once (Timed).
namespace {

// `next`: the binding's own definition (dlsym RTLD_NEXT, looked up once per wrapper).
template <typename... Args>
void forward_fortran(void* next, K call, bool init, Args... args) {
  using Fn = void (*)(Args...);
  if (init) start_openmp_runtime();
  if (!next) return;  // no Fortran binding loaded after this library: nothing to call
  Timed t(call);
  reinterpret_cast<Fn>(next)(args...);
}

}  // namespace

using P = void*;
OMPSCOPE_EXPORT void mpi_init_(P a) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_init_");
  forward_fortran(next, K::Init, true, a);
}
OMPSCOPE_EXPORT void mpi_init_thread_(P a, P b, P c) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_init_thread_");
  forward_fortran(next, K::Init, true, a, b, c);
}
OMPSCOPE_EXPORT void mpi_finalize_(P a) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_finalize_");
  forward_fortran(next, K::Finalize, false, a);
}
OMPSCOPE_EXPORT void mpi_send_(P a, P b, P c, P d, P e, P f, P g) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_send_");
  forward_fortran(next, K::Send, false, a, b, c, d, e, f, g);
}
OMPSCOPE_EXPORT void mpi_recv_(P a, P b, P c, P d, P e, P f, P g, P h) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_recv_");
  forward_fortran(next, K::Recv, false, a, b, c, d, e, f, g, h);
}
OMPSCOPE_EXPORT void mpi_sendrecv_(P a, P b, P c, P d, P e, P f, P g, P h, P i, P j, P k, P l, P m) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_sendrecv_");
  forward_fortran(next, K::Sendrecv, false, a, b, c, d, e, f, g, h, i, j, k, l, m);
}
OMPSCOPE_EXPORT void mpi_probe_(P a, P b, P c, P d, P e) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_probe_");
  forward_fortran(next, K::Probe, false, a, b, c, d, e);
}
OMPSCOPE_EXPORT void mpi_wait_(P a, P b, P c) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_wait_");
  forward_fortran(next, K::Wait, false, a, b, c);
}
OMPSCOPE_EXPORT void mpi_waitall_(P a, P b, P c, P d) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_waitall_");
  forward_fortran(next, K::Waitall, false, a, b, c, d);
}
OMPSCOPE_EXPORT void mpi_waitany_(P a, P b, P c, P d, P e) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_waitany_");
  forward_fortran(next, K::Waitany, false, a, b, c, d, e);
}
OMPSCOPE_EXPORT void mpi_barrier_(P a, P b) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_barrier_");
  forward_fortran(next, K::Barrier, false, a, b);
}
OMPSCOPE_EXPORT void mpi_bcast_(P a, P b, P c, P d, P e, P f) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_bcast_");
  forward_fortran(next, K::Bcast, false, a, b, c, d, e, f);
}
OMPSCOPE_EXPORT void mpi_reduce_(P a, P b, P c, P d, P e, P f, P g, P h) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_reduce_");
  forward_fortran(next, K::Reduce, false, a, b, c, d, e, f, g, h);
}
OMPSCOPE_EXPORT void mpi_allreduce_(P a, P b, P c, P d, P e, P f, P g) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_allreduce_");
  forward_fortran(next, K::Allreduce, false, a, b, c, d, e, f, g);
}
OMPSCOPE_EXPORT void mpi_gather_(P a, P b, P c, P d, P e, P f, P g, P h, P i) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_gather_");
  forward_fortran(next, K::Gather, false, a, b, c, d, e, f, g, h, i);
}
OMPSCOPE_EXPORT void mpi_allgather_(P a, P b, P c, P d, P e, P f, P g, P h) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_allgather_");
  forward_fortran(next, K::Allgather, false, a, b, c, d, e, f, g, h);
}
OMPSCOPE_EXPORT void mpi_scatter_(P a, P b, P c, P d, P e, P f, P g, P h, P i) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_scatter_");
  forward_fortran(next, K::Scatter, false, a, b, c, d, e, f, g, h, i);
}
OMPSCOPE_EXPORT void mpi_alltoall_(P a, P b, P c, P d, P e, P f, P g, P h) {
  static void* const next = dlsym(RTLD_NEXT, "mpi_alltoall_");
  forward_fortran(next, K::Alltoall, false, a, b, c, d, e, f, g, h);
}
