#include "analysis/symbolizer.h"

#include <backtrace.h>
#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "analysis/elf_file.h"

#include <link.h>

// libbacktrace's dl_iterate_phdr, renamed in ompscope's copy of libbacktrace.a
// (cmake/Dependencies.cmake): only this executable's own entry, where libbacktrace learns the
// load bias it puts the named file at (own_executable_bias), and none of its libraries, whose
// debug info libbacktrace would otherwise read into every module's state.
extern "C" int ompscope_backtrace_phdrs(int (*callback)(dl_phdr_info*, size_t, void*), void* data) {
  struct Forward {
    int (*callback)(dl_phdr_info*, size_t, void*);
    void* data;
  } forward{callback, data};
  return dl_iterate_phdr(
      [](dl_phdr_info* info, size_t size, void* p) {
        const Forward& f = *static_cast<Forward*>(p);
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;  // a library
        return f.callback(info, size, f.data);
      },
      &forward);
}

namespace ompscope::analysis {

struct Symbolizer::ModuleState {
  backtrace_state* state = nullptr;  // libbacktrace has no destroy function: one per file, kept
  // GCC's line table puts a pragma's line on the instruction after the runtime call, clang's
  // on the call itself: a GCC-built module (it needs libgomp) is looked up at the return
  // address, any other at the byte before it.
  bool gcc_line_convention = false;
  // The module's user functions at the first line of each (clang's outlined bodies are named
  // after no function: the one they were outlined from is the function of their file whose
  // first line is the last before theirs). Read on first need.
  struct FunctionLine {
    std::string file;
    int line = 0;
    std::string name;
  };
  std::vector<FunctionLine> function_lines;
  bool function_lines_read = false;
  // The module's function symbols by link-time address (tail_called_fork_body, fork_passes_body),
  // and their starts in order (the function holding an address). Read on first need.
  std::unordered_map<uint64_t, ElfFunction> functions_at;
  std::vector<uint64_t> function_starts;
  bool functions_read = false;
  // The two tables above are read on first need by whichever analysis asks: runs analysed at
  // once share the state (shared_module_state).
  std::mutex tables;
  // A system library or ompscope's own (is_system_library, is_tool_library): no libbacktrace
  // state, its function symbols by link-time address instead, read when the state is made and
  // never changed after.
  bool symbols_only = false;
  std::vector<ElfFunction> symbols;
};

std::string enclosing_function(const char* name);

namespace {

void ignore_error(void*, const char*, int) {}

// libbacktrace places the named file at this (the analysing) program's own load bias, whatever
// file it is: queries must be shifted by it.
uintptr_t own_executable_bias() { return static_cast<uintptr_t>(own_executable_load_bias()); }

// Each file's state, once per process: reading a module's debug info (decompressing the
// compressed sections of Debian's /usr/lib/debug files, libc's among them) was most of a run's
// fixed cost, paid again for every run of `scale` and every process of a run. Created threaded,
// as runs may be analysed at once. Null state: the file's debug info cannot be read.
Symbolizer::ModuleState* shared_module_state(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Symbolizer::ModuleState>> states;
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Symbolizer::ModuleState>& s = states[path];
  if (!s) {
    s = std::make_unique<Symbolizer::ModuleState>();
    if (is_system_library(path) || is_tool_library(path)) {
      s->symbols_only = true;
      s->symbols = elf_functions(path);
      std::sort(s->symbols.begin(), s->symbols.end(),
                [](const ElfFunction& a, const ElfFunction& b) { return a.address < b.address; });
      return s.get();
    }
    // A module that is no file ("linux-vdso.so.1", a library deleted since the run) gets no
    // state: libbacktrace falls back to /proc/self/exe for a name it cannot open, and would
    // read ompscope's own debug info (12 ms of a 53 ms report) to name the vDSO's addresses
    // after ompscope's functions.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return s.get();
    s->state = backtrace_create_state(path.c_str(), /*threaded=*/1, ignore_error, nullptr);
    for (const std::string& lib : elf_needed_libraries(path))
      if (lib.starts_with("libgomp")) s->gcc_line_convention = true;
  }
  return s.get();
}

// DWARF joins the compilation directory and the file name; with an absolute file name some
// producers leave "dir//abs/path": the part after the double slash is the real path.
std::string clean_path(const char* file) {
  std::string path(file);
  const size_t twice = path.rfind("//");
  return twice == std::string::npos ? path : path.substr(twice + 1);
}

std::string demangle(const char* name) {
  if (!name) return {};
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !out) return name;
  std::string result(out);
  free(out);
  return result;
}

constexpr uintptr_t kLineSearchBytes = 512;

struct PcInfo {
  SourceLocation* location;
  bool found = false;
};

// GCC names a construct's outlined body after its function: main._omp_fn.0 is main's.

// Called innermost inlined frame first: the first frame with a file is the source line of the call.
int on_pcinfo(void* data, uintptr_t, const char* file, int line, const char* function) {
  auto* info = static_cast<PcInfo*>(data);
  if (!file) return 0;
  info->location->file = clean_path(file);
  info->location->line = line;
  if (function) info->location->function = enclosing_function(function);
  info->found = true;
  return 1;
}

void on_syminfo(void* data, uintptr_t, const char* symbol, uintptr_t, uintptr_t) {
  auto* location = static_cast<SourceLocation*>(data);
  if (symbol && location->function.empty()) location->function = enclosing_function(symbol);
}

// The outermost frame's line at one address (the function's own, not an inlined callee's).
int on_outer_line(void* data, uintptr_t, const char* file, int line, const char*) {
  if (file) *static_cast<std::pair<std::string, int>*>(data) = {clean_path(file), line};
  return 0;
}

struct Symbol {
  uintptr_t start = 0, size = 0;
};
void on_symbol(void* data, uintptr_t, const char*, uintptr_t start, uintptr_t size) {
  *static_cast<Symbol*>(data) = {start, size};
}

// A construct's outlined body under GCC (the libgomp capture names a region by it, see
// docs/libgomp.md) begins at its first statement, not at the directive: the directive's line is
// the smallest line of the function's own code in its file (GCC gives it the body's closing
// barrier and return).
constexpr uintptr_t kOutlinedScanBytes = 4096;
// Where a helper is inlined at the body's start (its first statement calls it), the body's own
// line there is the outermost frame's: the directive is searched from it, in its file (a region
// whose body began with an inlined helper was placed at the helper's loop).
void directive_line(backtrace_state* state, uintptr_t entry, std::string& file, int& line) {
  Symbol sym;
  backtrace_syminfo(state, entry, on_symbol, ignore_error, &sym);
  if (sym.start != entry || sym.size == 0) return;
  std::pair<std::string, int> own{"", 0};
  backtrace_pcinfo(state, entry, on_outer_line, ignore_error, &own);
  if (own.second > 0) file = own.first, line = own.second;
  for (uintptr_t pc = entry; pc < entry + std::min(sym.size, kOutlinedScanBytes); ++pc) {
    std::pair<std::string, int> at{"", 0};
    backtrace_pcinfo(state, pc, on_outer_line, ignore_error, &at);
    if (at.first == file && at.second > 0 && at.second < line) line = at.second;
  }
}

}  // namespace

std::string enclosing_function(const char* name) {
  std::string f = demangle(name);
  // GCC names an outlined body after its function: "f._omp_fn.N" in C, demangled as
  // "f(args) [clone ._omp_fn.N]" in C++.
  for (const char* suffix : {" [clone ._omp_fn.", "._omp_fn."})
    if (const auto cut = f.find(suffix); cut != std::string::npos) f.resize(cut);
  return f;
}

bool is_openmp_runtime(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  return name.starts_with("libomp.") || name.starts_with("libomp-") || name.starts_with("libgomp.") ||
         name.starts_with("libiomp");
}

bool is_system_library(const std::string& path) {
  return path.starts_with("/lib/") || path.starts_with("/lib64/") || path.starts_with("/usr/lib/") ||
         path.starts_with("/usr/lib64/");
}

bool is_tool_library(const std::string& path) {
  return std::filesystem::path(path).filename().string().starts_with("libompscope");
}

std::string SourceLocation::file_line() const {
  if (!file.empty()) return fmt::format("{}:{}", file, line);
  if (!module.empty())
    return fmt::format("{}+0x{:x}", std::filesystem::path(module).filename().string(), module_offset);
  return "unknown";
}

Symbolizer::Symbolizer(std::vector<ModuleRange> modules) : modules_(std::move(modules)) {
  states_.resize(modules_.size());
}

Symbolizer::~Symbolizer() = default;

struct Symbolizer::Lookup {
  const ModuleRange* module = nullptr;
  ModuleState* state = nullptr;  // null: the module's debug info cannot be read, or is not (a system library)
  uintptr_t pc = 0;              // `address` as libbacktrace wants it
  const ModuleState* symbols_only = nullptr;  // a system library or ompscope's own: named by its function symbols
};

Symbolizer::Lookup Symbolizer::find(uint64_t address) {
  for (size_t i = 0; i < modules_.size(); ++i) {
    const ModuleRange& m = modules_[i];
    if (address < m.begin || address >= m.end) continue;
    if (!states_[i]) states_[i] = shared_module_state(m.path);
    static const uintptr_t shift = own_executable_bias();
    return {&m, states_[i]->state ? states_[i] : nullptr, static_cast<uintptr_t>(address - m.load_bias) + shift,
            states_[i]->symbols_only ? states_[i] : nullptr};
  }
  return {};
}

const SourceLocation& Symbolizer::resolve(uint64_t address) {
  auto cached = cache_.find(address);
  if (cached != cache_.end()) return cached->second;
  SourceLocation& location = cache_[address];
  locate(location, address, false);
  return location;
}

const SourceLocation& Symbolizer::resolve_call(uint64_t address) {
  auto cached = call_cache_.find(address);
  if (cached != call_cache_.end()) return cached->second;
  SourceLocation& location = call_cache_[address];
  locate(location, address, true);
  return location;

}

namespace {

// The user function of a module that holds `line` of `file`: of the functions whose first line is
// in that file, the one starting last at or before `line` (C and C++ functions do not nest;
// a lambda's body is its own function). Empty when none does.
std::string function_holding(Symbolizer::ModuleState& module, const std::string& path, const std::string& file, int line) {
  const std::lock_guard<std::mutex> lock(module.tables);
  if (!module.function_lines_read) {
    module.function_lines_read = true;
    static const uintptr_t shift = own_executable_bias();
    for (const ElfFunction& f : elf_functions(path)) {
      if (f.name.empty() || f.name[0] == '.' || is_outlined_body_name(f.name) || f.name.starts_with("__kmpc") ||
          f.name.starts_with("__omp"))
        continue;
      std::pair<std::string, int> at{"", 0};
      backtrace_pcinfo(module.state, static_cast<uintptr_t>(f.address) + shift, on_outer_line, ignore_error, &at);
      if (at.second > 0) module.function_lines.push_back({at.first, at.second, enclosing_function(f.name.c_str())});
    }
  }
  const Symbolizer::ModuleState::FunctionLine* best = nullptr;
  for (const auto& f : module.function_lines)
    if (f.file == file && f.line <= line && (!best || f.line > best->line)) best = &f;
  return best ? best->name : std::string();
}

}  // namespace

void Symbolizer::locate(SourceLocation& location, uint64_t address, bool call_itself) {
  if (address == 0) return;
  const Lookup found = find(address);
  if (!found.module) return;
  const ModuleRange& m = *found.module;
  location.module = m.path;
  location.in_runtime = is_openmp_runtime(m.path);
  location.module_offset = address - m.load_bias;
  if (found.symbols_only) {
    // The function holding the call (or the instruction itself), by the symbol table alone.
    const std::vector<ElfFunction>& symbols = found.symbols_only->symbols;
    const uint64_t at = location.module_offset - (call_itself ? 0 : 1);
    auto next = std::upper_bound(symbols.begin(), symbols.end(), at,
                                 [](uint64_t a, const ElfFunction& f) { return a < f.address; });
    if (next == symbols.begin()) return;
    auto holding = std::prev(next);
    if (holding->size != 0 && at >= holding->address + holding->size) return;
    // Of the aliases at one address (glibc's munmap and __munmap), the public name: fewest
    // leading underscores, as libbacktrace's DWARF names read.
    const auto underscores = [](const std::string& n) { return n.find_first_not_of('_'); };
    for (auto it = holding; it->address == holding->address; --it) {
      if (underscores(it->name) < underscores(holding->name)) holding = it;
      if (it == symbols.begin()) break;
    }
    location.function = demangle(holding->name.c_str());
    return;
  }
  if (!found.state) return;
  backtrace_state* state = found.state->state;
  const bool gcc = found.state->gcc_line_convention && !call_itself;
  const uintptr_t pc = found.pc - (gcc ? 0 : 1);
  PcInfo info{&location};
  backtrace_pcinfo(state, pc, on_pcinfo, ignore_error, &info);
  // Optimising compilers give the runtime call of a pragma line 0; the pragma's own line is
  // the last non-zero row before it, so walk back a little.
  for (uintptr_t back = 1; info.found && location.line == 0 && back <= kLineSearchBytes; ++back) {
    SourceLocation earlier;
    PcInfo probe{&earlier};
    backtrace_pcinfo(state, pc - back, on_pcinfo, ignore_error, &probe);
    if (probe.found && earlier.line != 0 && earlier.file == location.file) location.line = earlier.line;
  }
  if (location.function.empty()) backtrace_syminfo(state, pc, on_syminfo, ignore_error, &location);
  // A call inside clang's outlined body: the user function it was outlined from.
  if (is_outlined_body_name(location.function) && info.found && location.line > 0)
    if (std::string user = function_holding(*found.state, m.path, location.file, location.line); !user.empty())
      location.function = std::move(user);
  if (gcc && info.found && location.line > 0) {
    directive_line(state, pc, location.file, location.line);
    // A GCC body's own function, not a helper inlined at its start.
    struct Named {
      std::string name;
      uintptr_t start = 0;
    } named;
    backtrace_syminfo(
        state, pc,
        [](void* data, uintptr_t, const char* symbol, uintptr_t start, uintptr_t) {
          if (symbol) *static_cast<Named*>(data) = {symbol, start};
        },
        ignore_error, &named);
    if (named.start == pc && is_outlined_body_name(named.name)) location.function = enclosing_function(named.name.c_str());
  }
}

namespace {

struct SymbolAt {
  std::string name;
  uintptr_t value = 0;  // the symbol's address (libbacktrace's pc space)
};

void on_named_symbol(void* data, uintptr_t, const char* symbol, uintptr_t value, uintptr_t) {
  auto* out = static_cast<SymbolAt*>(data);
  if (symbol) {
    out->name = symbol;
    out->value = value;
  }
}

}  // namespace

bool is_outlined_body_name(const std::string& symbol) {
  // clang: ".omp_outlined.", ".omp_outlined..4", "__omp_outlined__12", "main.omp_outlined";
  // GCC and gfortran: "main._omp_fn.0", "MAIN__._omp_fn.3", "sub_._omp_fn.1".
  return symbol.find("omp_outlined") != std::string::npos || symbol.find("._omp_fn.") != std::string::npos;
}

uint64_t Symbolizer::outlined_body_entry(uint64_t address) {
  auto cached = entry_cache_.find(address);
  if (cached != entry_cache_.end()) return cached->second;
  uint64_t& entry = entry_cache_[address];
  const Lookup found = find(address);
  if (!found.state) return entry;
  SymbolAt symbol;
  // The call is at the byte before the return address, in the same function even when the
  // call is the function's last instruction.
  backtrace_syminfo(found.state->state, found.pc - 1, on_named_symbol, ignore_error, &symbol);
  if (symbol.value == 0 || !is_outlined_body_name(symbol.name)) return entry;
  static const uintptr_t shift = own_executable_bias();
  entry = symbol.value - shift + found.module->load_bias;
  return entry;
}

namespace {

// Reads the module's function symbols once, under its lock; read-only after, by any thread that
// saw them read.
void read_functions(Symbolizer::ModuleState& module, const std::string& path) {
  const std::lock_guard<std::mutex> lock(module.tables);
  if (module.functions_read) return;
  for (ElfFunction& f : elf_functions(path)) {
    module.function_starts.push_back(f.address);
    module.functions_at.emplace(f.address, std::move(f));
  }
  std::sort(module.function_starts.begin(), module.function_starts.end());
  module.functions_read = true;
}

// The outlined bodies (link-time entries) that the function at `start` loads into the register
// its fork passes the microtask in, x86-64: `lea disp32(%rip), %reg`, REX.W 8D and a ModRM of
// that register with RIP-relative addressing. clang's __kmpc_fork_call(loc, argc, microtask, ...)
// takes it in %rdx (48 8D 15); GOMP_parallel(fn, data, ...) in %rdi (48 8D 3D). A task's entry
// goes elsewhere (clang's __kmpc_omp_task_alloc: %r9; GCC's GOMP_task: %rdi too, but from the
// body that creates the task, not from the function that forks it).
std::vector<uint64_t> bodies_loaded(const Symbolizer::ModuleState& module, const std::string& path, uint64_t start,
                                    uint64_t size, uint8_t modrm) {
  constexpr uint64_t kScanBytes = 1 << 20;
  const std::vector<uint8_t> code = elf_x86_64_code(path, start, std::min(size, kScanBytes));
  std::vector<uint64_t> bodies;
  for (size_t i = 0; i + 7 <= code.size(); ++i) {
    if (code[i] != 0x48 || code[i + 1] != 0x8D || code[i + 2] != modrm) continue;
    int32_t disp = 0;
    std::memcpy(&disp, &code[i + 3], sizeof disp);
    const uint64_t target = start + i + 7 + static_cast<int64_t>(disp);
    const auto f = module.functions_at.find(target);
    if (f != module.functions_at.end() && is_outlined_body_name(f->second.name)) bodies.push_back(target);
  }
  std::sort(bodies.begin(), bodies.end());
  bodies.erase(std::unique(bodies.begin(), bodies.end()), bodies.end());
  return bodies;
}

constexpr uint8_t kRipToRdx = 0x15, kRipToRdi = 0x3D;

}  // namespace

uint64_t Symbolizer::tail_called_fork_body(uint64_t address) {
  auto cached = tail_cache_.find(address);
  if (cached != tail_cache_.end()) return cached->second;
  uint64_t& body = tail_cache_[address];
  const Lookup found = find(address);
  if (!found.state || found.state->gcc_line_convention) return body;
  const std::string& path = found.module->path;
  ModuleState& module = *found.state;
  read_functions(module, path);
  // The direct call (E8 rel32) the return address follows, and the function it calls.
  const uint64_t ra = address - found.module->load_bias;
  if (ra < 5) return body;
  const std::vector<uint8_t> call = elf_x86_64_code(path, ra - 5, 5);
  if (call.size() != 5 || call[0] != 0xE8) return body;
  int32_t rel = 0;
  std::memcpy(&rel, &call[1], sizeof rel);
  const auto callee = module.functions_at.find(ra + static_cast<int64_t>(rel));
  if (callee == module.functions_at.end() || callee->second.size == 0 || is_outlined_body_name(callee->second.name))
    return body;
  // The outlined bodies it passes as the microtask; two regions: which one forked is not known.
  constexpr uint64_t kCalleeScanBytes = 4096;
  const std::vector<uint64_t> bodies =
      bodies_loaded(module, path, callee->first, std::min(callee->second.size, kCalleeScanBytes), kRipToRdx);
  if (bodies.size() == 1) body = bodies.front() + found.module->load_bias;
  return body;
}

bool Symbolizer::fork_passes_body(uint64_t fork_return_address, uint64_t entry) {
  auto cached = forked_bodies_cache_.find(fork_return_address);
  if (cached == forked_bodies_cache_.end()) {
    std::vector<uint64_t>& bodies = forked_bodies_cache_[fork_return_address];
    const Lookup found = find(fork_return_address);
    if (found.state) {
      const std::string& path = found.module->path;
      ModuleState& module = *found.state;
      read_functions(module, path);
      // The function holding the call (the byte before its return address).
      const uint64_t call = fork_return_address - found.module->load_bias - 1;
      auto it = std::upper_bound(module.function_starts.begin(), module.function_starts.end(), call);
      if (it != module.function_starts.begin()) {
        const ElfFunction& f = module.functions_at.at(*--it);
        if (call < f.address + f.size)
          for (uint64_t b : bodies_loaded(module, path, f.address, f.size,
                                          found.state->gcc_line_convention ? kRipToRdi : kRipToRdx))
            bodies.push_back(b + found.module->load_bias);
      }
    }
    cached = forked_bodies_cache_.find(fork_return_address);
  }
  return std::binary_search(cached->second.begin(), cached->second.end(), entry);
}

const SourceLocation& Symbolizer::resolve_body(uint64_t entry) {
  auto cached = body_cache_.find(entry);
  if (cached != body_cache_.end()) return cached->second;
  SourceLocation& location = body_cache_[entry];
  const Lookup found = find(entry);
  if (!found.module) return location;
  location.module = found.module->path;
  location.module_offset = entry - found.module->load_bias;
  if (!found.state) return location;
  PcInfo info{&location};
  backtrace_pcinfo(found.state->state, found.pc, on_pcinfo, ignore_error, &info);
  // The body's own line at its entry, not that of a helper inlined at its start (the innermost
  // frame there: a region whose body calls a static inline function was placed at its line).
  std::pair<std::string, int> own{"", 0};
  backtrace_pcinfo(found.state->state, found.pc, on_outer_line, ignore_error, &own);
  if (info.found && own.second > 0) location.file = own.first, location.line = own.second;
  // GCC's body starts at its first statement; the directive is its smallest line.
  if (found.state->gcc_line_convention && info.found && location.line > 0)
    directive_line(found.state->state, found.pc, location.file, location.line);
  SymbolAt symbol;
  backtrace_syminfo(found.state->state, found.pc, on_named_symbol, ignore_error, &symbol);
  // GCC names a body after the function it was outlined from; clang's name says nothing.
  const size_t gcc = symbol.name.find("._omp_fn.");
  location.function = gcc != std::string::npos ? demangle(symbol.name.substr(0, gcc).c_str()) : std::string();
  // clang's says nothing: the function of the file around the directive's line.
  if (location.function.empty() && info.found && location.line > 0)
    location.function = function_holding(*found.state, found.module->path, location.file, location.line);
  return location;
}

}  // namespace ompscope::analysis
