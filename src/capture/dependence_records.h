// The TaskDependences records of a task's depend clause (event_record.h): up to two items per
// 32-byte record, every record of one clause under one timestamp, so a clause of n items costs one
// clock read and ceil(n / 2) stores. Shared by the OMPT tool and the libgomp interposer.
#pragma once
#include <cstdint>

#include "capture/thread_log.h"
#include "common/event_record.h"

namespace ompscope::capture {

// Gathers a clause's items and writes them two by two.
class DependenceWriter {
 public:
  DependenceWriter(ThreadLog& log, const LogConfig& config, uint64_t now, uint32_t task)
      : log_(log), config_(config), now_(now), task_(task) {}
  void add(uint64_t address, uint8_t type) {
    if (pending_) {
      write(pending_address_, pending_type_, address, type, 2);
      pending_ = false;
    } else {
      pending_address_ = address;
      pending_type_ = type;
      pending_ = true;
    }
  }
  void finish() {
    if (pending_) write(pending_address_, pending_type_, 0, 0, 1);
    pending_ = false;
  }

 private:
  void write(uint64_t a, uint8_t type_a, uint64_t b, uint8_t type_b, uint8_t items) {
    Event* e = reserve(log_, config_);
    *e = Event{now_,
               a,
               task_,
               static_cast<uint32_t>(b),
               static_cast<uint32_t>(b >> 32),
               static_cast<uint16_t>(type_a | (type_b << 8)),
               EventKind::TaskDependences,
               items};
  }
  ThreadLog& log_;
  const LogConfig& config_;
  uint64_t now_;
  uint32_t task_;
  uint64_t pending_address_ = 0;
  uint8_t pending_type_ = 0;
  bool pending_ = false;
};

}  // namespace ompscope::capture
