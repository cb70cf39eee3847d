// A test shim, preloaded into one ompscope by e2e safety_rank_claim (tests/e2e/safety_checks.py):
// opening $OMPSCOPE_TEST_HOLD_OPENDIR as a directory stream creates $OMPSCOPE_TEST_HOLD_SIGNAL
// and waits until $OMPSCOPE_TEST_HOLD_UNTIL exists (at most 20 s). It holds one rank's ompscope between two of its checks of the output directory while
// another rank claims it: the interleaving of two ranks started at once, made certain instead of
// one launch in hundreds. libstdc++'s directory_iterator opens with opendir or with openat and
// fdopendir, by version: both are held.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void hold_if_named(const char* path) {
  const char* hold = getenv("OMPSCOPE_TEST_HOLD_OPENDIR");
  const char* until = getenv("OMPSCOPE_TEST_HOLD_UNTIL");
  const char* signal = getenv("OMPSCOPE_TEST_HOLD_SIGNAL");
  char wanted[PATH_MAX], given[PATH_MAX];
  if (!hold || !until || !signal || !realpath(hold, wanted) || !realpath(path, given) || strcmp(wanted, given) != 0)
    return;
  const int fd = open(signal, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) close(fd);
  for (int i = 0; i < 2000 && access(until, F_OK) != 0; ++i) usleep(10000);
}

DIR* opendir(const char* name) {
  static DIR* (*real_opendir)(const char*);
  if (!real_opendir) real_opendir = (DIR * (*)(const char*)) dlsym(RTLD_NEXT, "opendir");
  hold_if_named(name);
  return real_opendir(name);
}

DIR* fdopendir(int fd) {
  static DIR* (*real_fdopendir)(int);
  if (!real_fdopendir) real_fdopendir = (DIR * (*)(int)) dlsym(RTLD_NEXT, "fdopendir");
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, path, sizeof path - 1);
  if (n > 0) {
    path[n] = '\0';
    hold_if_named(path);
  }
  return real_fdopendir(fd);
}
