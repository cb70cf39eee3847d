#include "common/side_by_side.h"

#include <pthread.h>
#include <signal.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace ompscope::detail {
namespace {

// A call of run_beside_helpers: how many more helpers it wants, and how many run it now.
struct Job {
  void (*run)(void*) = nullptr;
  void* arg = nullptr;
  size_t wanted = 0;
  size_t running = 0;
};

// Threads that wait for jobs, started as calls want more than are idle and kept to the process's
// end. Never destroyed (a static destructor would have to stop threads the exit kills anyway).
class Helpers {
 public:
  static Helpers& get() {
    static Helpers* const helpers = new Helpers;
    return *helpers;
  }

  void run(size_t helpers, void (*run)(void*), void* arg) {
    Job job{run, arg, helpers, 0};
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(&job);
      for (size_t k = idle_; k < helpers; ++k) start();
    }
    offered_.notify_all();
    run(arg);
    // Every piece is taken: a helper that has not begun the job need not, one that has is waited for.
    std::unique_lock lock(mutex_);
    job.wanted = 0;
    std::erase(jobs_, &job);
    done_.wait(lock, [&] { return job.running == 0; });
  }

 private:
  void start() {
    ++idle_;  // counted from now, so that the next call does not start one more for the same job
    // Process-directed signals go to the threads that handle them, never to a helper: it starts
    // with every signal blocked (the mask a thread inherits from its creator).
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    try {
      std::thread([this] { serve(); }).detach();
    } catch (const std::system_error&) {
      --idle_;  // no thread (a limit on threads reached): this call's thread does the pieces itself
    }
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
  }

  void serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      offered_.wait(lock, [&] { return !jobs_.empty(); });
      Job* job = jobs_.front();
      if (--job->wanted == 0) jobs_.pop_front();
      ++job->running;
      --idle_;
      lock.unlock();
      job->run(job->arg);
      lock.lock();
      ++idle_;
      if (--job->running == 0) done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable offered_, done_;
  std::deque<Job*> jobs_;  // jobs that want more helpers, oldest first
  size_t idle_ = 0;        // helpers waiting for a job, or started and not yet waiting
};

}  // namespace

void run_beside_helpers(size_t helpers, void (*run)(void*), void* arg) { Helpers::get().run(helpers, run, arg); }

}  // namespace ompscope::detail
