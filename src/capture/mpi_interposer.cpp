// libompscope_mpi.so: times MPI calls through the MPI profiling interface (PMPI). Preloaded
// beside the tool library (libompscope.so or libompscope_gomp.so) only into programs that link an
// MPI library (docs/mpi.md); each wrapped call asks the tool for its entry time and hands the
// tool its record when it returns, so the record lands in the same per-thread log as the
// OpenMP records (event_record.h: MpiCall). Without a tool library loaded it only forwards.
#include <dlfcn.h>
#include <mpi.h>

#include <cstdint>

#include "common/event_record.h"

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

// Times one call: the entry time before it, the record after it.
struct Timed {
  ompscope::MpiCallKind call;
  uint64_t entered;
  explicit Timed(ompscope::MpiCallKind c) : call(c), entered(g_enter ? g_enter() : 0) {}
  ~Timed() {
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

OMPSCOPE_EXPORT int MPI_Init(int* argc, char*** argv) {
  start_openmp_runtime();
  Timed t(K::Init);
  return PMPI_Init(argc, argv);
}

OMPSCOPE_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
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
