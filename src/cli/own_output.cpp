#include "cli/own_output.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace ompscope::cli {
namespace {

struct Sink {
  int fd;
  int error = 0;  // the first write error
};

Sink out_sink{STDOUT_FILENO}, err_sink{STDERR_FILENO};

// Writes everything it can and says it wrote it all. SIGPIPE is held back while it writes (a
// closed pipe is an error recorded here, not the end of ompscope while its program runs) and a
// SIGPIPE it caused is taken off the pending set.
ssize_t sink_write(void* cookie, const char* data, size_t size) {
  Sink& sink = *static_cast<Sink*>(cookie);
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  for (size_t done = 0; done < size && sink.error == 0;) {
    const ssize_t n = ::write(sink.fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      sink.error = n < 0 ? errno : ENOSPC;
      if (sink.error == EPIPE) {
        const timespec now{0, 0};
        sigtimedwait(&pipe_only, nullptr, &now);
      }
      break;
    }
    done += static_cast<size_t>(n);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return static_cast<ssize_t>(size);
}

FILE* open_sink(Sink& sink, const char* mode) {
  cookie_io_functions_t functions{};
  functions.write = sink_write;
  return fopencookie(&sink, mode, functions);
}

}  // namespace

void guard_own_output() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    if (fd == STDOUT_FILENO) out_sink.error = EBADF;  // `report >&-` cannot write its output
    const int null = open("/dev/null", O_RDWR | O_CLOEXEC);  // the lowest free number: fd itself
    if (null >= 0 && null != fd) {
      dup3(null, fd, O_CLOEXEC);
      close(null);
    }
  }
  std::fflush(stdout);
  std::fflush(stderr);
  if (FILE* err = open_sink(err_sink, "w")) {
    setvbuf(err, nullptr, _IONBF, 0);
    stderr = err;  // glibc's standard streams are assignable variables
  }
  if (FILE* out = open_sink(out_sink, "w")) {
    if (isatty(STDOUT_FILENO)) setvbuf(out, nullptr, _IOLBF, BUFSIZ);
    stdout = out;
  }
}

int stdout_error() {
  std::fflush(stdout);
  return out_sink.error;
}

}  // namespace ompscope::cli
