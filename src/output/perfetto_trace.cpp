#include "output/perfetto_trace.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

namespace ompscope::output {
// The model (report/trace_model.h) is built by the analysis; this file only writes it.
using report::Slice;
using report::SliceKind;
using report::ThreadTrack;
using report::TraceModel;
using report::TraceRegion;
using report::slice_kind_name;
namespace {

std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Microseconds with exactly the nanosecond digits, so that ts and ts+dur stay integers in ns
// for every reader (Perfetto rounds µs·1000 to ns) and nesting survives the conversion.
void append_us(fmt::memory_buffer& buf, int64_t ns) {
  if (ns < 0) {
    buf.push_back('-');
    ns = -ns;
  }
  fmt::format_to(fmt::appender(buf), FMT_COMPILE("{}.{:03}"), ns / 1000, ns % 1000);
}

// The file is written in pieces of about this size.
constexpr size_t kFlushBytes = 1 << 20;

void flush(fmt::memory_buffer& buf, std::ostream& out, bool force = false) {
  if (buf.size() >= kFlushBytes || force) {
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  }
}

}  // namespace

PerfettoResult write_perfetto_trace(const TraceModel& model, std::ostream& out, const PerfettoOptions& options) {
  PerfettoResult result;
  result.slices_total = model.slice_count();
  const uint64_t metadata_events = 1 + 2 * model.threads.size();
  const uint64_t budget = options.max_events > metadata_events ? options.max_events - metadata_events : 0;

  // The cut: the earliest begin that is not kept. A slice is written iff it begins before it,
  // so a written slice's parents (which begin no later) are written too.
  // CPU-time samples are events of the file too: the cut keeps those taken before it.
  int64_t cut = std::numeric_limits<int64_t>::max();
  uint64_t samples_total = 0;
  for (const ThreadTrack& t : model.threads) samples_total += t.samples.size();
  if (result.slices_total + samples_total > budget) {
    std::vector<int64_t> begins;
    begins.reserve(result.slices_total + samples_total);
    for (const ThreadTrack& t : model.threads) {
      for (const Slice& s : t.slices) begins.push_back(s.begin);
      for (const report::TraceSample& s : t.samples) begins.push_back(s.time);
    }
    std::nth_element(begins.begin(), begins.begin() + static_cast<std::ptrdiff_t>(budget), begins.end());
    cut = begins[budget];
    result.truncated = true;
    result.cut_at_ns = cut;
  }

  // Flows: creation slice → the task's first execution, when both are written.
  constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  struct Ends {
    uint32_t first_thread = kNone;
    size_t first_slice = 0;
    int64_t first_begin = 0;
    bool created = false;
  };
  std::vector<Ends> ends(model.tasks.size());
  for (uint32_t ti = 0; ti < model.threads.size(); ++ti) {
    const ThreadTrack& t = model.threads[ti];
    for (size_t k = 0; k < t.slices.size(); ++k) {
      const Slice& s = t.slices[k];
      if (s.begin >= cut || s.ref >= ends.size()) continue;
      Ends& e = ends[s.ref];
      if (s.kind == SliceKind::TaskCreate) e.created = true;
      if (s.kind == SliceKind::Task && model.tasks[s.ref].ran &&
          (e.first_thread == kNone || s.begin < e.first_begin)) {
        e.first_thread = ti;
        e.first_slice = k;
        e.first_begin = s.begin;
      }
    }
  }
  auto has_flow = [&](uint32_t task) { return ends[task].created && ends[task].first_thread != kNone; };

  std::vector<std::string> names;
  names.reserve(model.regions.size());
  for (const TraceRegion& r : model.regions) names.push_back(quoted(r.name));

  uint64_t written = 0;
  for (const ThreadTrack& t : model.threads)
    for (const Slice& s : t.slices) written += s.begin < cut;

  fmt::memory_buffer buf;
  auto it = fmt::appender(buf);
  fmt::format_to(it, FMT_COMPILE("{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"tool\":\"ompscope\",\"clock\":"
                     "\"microseconds since the run's start\",\"slices_total\":{},\"slices_written\":{}"
                     ",\"truncated\":{}"),
                 result.slices_total, written, result.truncated);
  if (result.truncated) {
    fmt::format_to(it, FMT_COMPILE(",\"cut_at_us\":"));
    append_us(buf, cut);
    fmt::format_to(it, FMT_COMPILE(",\"note\":{}"),
                   quoted(fmt::format("trace cut at the limit of {} events: {} of {} slices written, those that "
                                      "begin before the cut (see the OTF2 trace for the whole run)",
                                      options.max_events, written, result.slices_total)));
  }
  if (model.clamped)
    fmt::format_to(it, FMT_COMPILE(",\"slices_shortened_to_nest\":{}"), model.clamped);
  fmt::format_to(it, FMT_COMPILE("}},\n\"traceEvents\":[\n"));

  const int pid = model.pid;
  fmt::format_to(it, FMT_COMPILE("{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"args\":{{\"name\":{}}}}}"), pid,
                 quoted(options.process_name));
  for (size_t k = 0; k < model.threads.size(); ++k) {
    const uint32_t thread = model.threads[k].thread;
    const uint32_t tid = thread + 1;  // tid 0 means the idle task to some readers
    fmt::format_to(it, FMT_COMPILE(",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":\"OpenMP "
                   "thread {}{}\"}}}}"),
                   pid, tid, thread, thread == 0 ? " (initial)" : "");
    fmt::format_to(it, FMT_COMPILE(",\n{{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"sort_index\":{}"
                   "}}}}"),
                   pid, tid, thread);
  }
  result.events_written = metadata_events;

  for (uint32_t ti = 0; ti < model.threads.size(); ++ti) {
    const ThreadTrack& t = model.threads[ti];
    const uint32_t tid = t.thread + 1;
    for (size_t k = 0; k < t.slices.size(); ++k) {
      const Slice& s = t.slices[k];
      if (s.begin >= cut) continue;
      fmt::format_to(it, FMT_COMPILE(",\n{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"ts\":"), names[s.region], slice_kind_name(s.kind));
      append_us(buf, s.begin);
      fmt::format_to(it, FMT_COMPILE(",\"dur\":"));
      append_us(buf, s.end - s.begin);
      fmt::format_to(it, FMT_COMPILE(",\"pid\":{},\"tid\":{}"), pid, tid);
      switch (s.kind) {
        case SliceKind::TaskCreate:
          fmt::format_to(it, FMT_COMPILE(",\"args\":{{\"task\":{}}}"), model.tasks[s.ref].id);
          if (has_flow(s.ref)) {
            fmt::format_to(it, FMT_COMPILE(",\"bind_id\":{},\"flow_out\":true"), s.ref + 1);
            ++result.flows;
          }
          break;
        case SliceKind::Task:
          fmt::format_to(it, FMT_COMPILE(",\"args\":{{\"task\":{}}}"), model.tasks[s.ref].id);
          if (has_flow(s.ref) && ends[s.ref].first_thread == ti && ends[s.ref].first_slice == k)
            fmt::format_to(it, FMT_COMPILE(",\"bind_id\":{},\"flow_in\":true"), s.ref + 1);
          break;
        case SliceKind::LockHeld:
        case SliceKind::LockWait:
          fmt::format_to(it, FMT_COMPILE(",\"args\":{{\"lock\":{}}}"), s.ref);
          break;
        default:
          break;
      }
      buf.push_back('}');
      ++result.slices_written;
      flush(buf, out);
    }
  }
  // Samples: an instant event on the thread's track, named by the sampled place.
  std::vector<std::string> site_names;
  for (const report::Callsite& c : model.sample_sites) site_names.push_back(quoted("sample " + c.label));
  for (const ThreadTrack& t : model.threads)
    for (const report::TraceSample& s : t.samples) {
      if (s.time >= cut) continue;
      fmt::format_to(it, FMT_COMPILE(",\n{{\"name\":{},\"cat\":\"sample\",\"ph\":\"i\",\"s\":\"t\",\"ts\":"), site_names[s.site]);
      append_us(buf, s.time);
      fmt::format_to(it, FMT_COMPILE(",\"pid\":{},\"tid\":{}}}"), pid, t.thread + 1);
      ++result.samples_written;
      flush(buf, out);
    }
  result.events_written += result.slices_written + result.samples_written;
  fmt::format_to(it, FMT_COMPILE("\n]}}\n"));
  flush(buf, out, true);
  return result;
}

}  // namespace ompscope::output
