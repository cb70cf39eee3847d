// Offline symbolisation: a callsite's run-time address (codeptr_ra) → function, file:line,
// through the module map the run saved and each module's DWARF, read with libbacktrace.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/run_log.h"

namespace ompscope::analysis {

struct SourceLocation {
  std::string function;  // demangled; empty when the module has no symbols
  std::string file;      // as recorded in the debug info; empty without -g
  int line = 0;
  std::string module;    // path of the module holding the address
  bool in_runtime = false;  // the address is inside the OpenMP runtime itself

  std::string file_line() const;  // "file:line", or "module+0xoffset" without debug info
  uint64_t module_offset = 0;
};

// The user function a symbol belongs to, demangled, without GCC's outlined-body suffix
// ("f._omp_fn.2" and "f(int) [clone ._omp_fn.2]" are f and f(int)).
std::string enclosing_function(const char* name);

class Symbolizer {
 public:
  explicit Symbolizer(std::vector<ModuleRange> modules);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // `address` is a return address: the call itself is at address - 1.
  const SourceLocation& resolve(uint64_t address);
  // The call that returns to `address`, at the call's own line in every module, GCC-built ones
  // too: a construct's runtime call inside a region body (GCC's line table gives the return
  // address of a GOMP_barrier or an omp_set_lock the next statement's line; the convention of
  // `resolve` is the fork's; docs/source-locations.md).
  const SourceLocation& resolve_call(uint64_t address);

  // The entry of the compiler-outlined body of a parallel region (clang's ".omp_outlined.",
  // GCC's and gfortran's "f._omp_fn.N") holding return address `address`; 0 when the function
  // holding it is none (user code called from a body, the runtime, no symbols).
  uint64_t outlined_body_entry(uint64_t address);
  // clang -O2 ends a function whose last statement is a parallel region in `jmp
  // __kmpc_fork_call`: the fork's return address is then its caller's, just after a direct call
  // of that function, and a body that calls no runtime entry point leaves no other trace. Where
  // the called function loads exactly one outlined body as the fork's microtask (x86-64: `lea
  // disp(%rip), %rdx`, the third argument), that body's entry; 0 otherwise (an indirect call,
  // several regions in the function, a GCC-built module: its interposer names the body itself).
  uint64_t tail_called_fork_body(uint64_t return_address);
  // Whether the function holding a fork's return address loads the outlined body at `entry` into
  // the register the fork takes its body in (x86-64: `lea disp(%rip)` into %rdx for clang's
  // __kmpc_fork_call, %rdi for GOMP_parallel in a GCC-built module): a body named by where the
  // CPU-time samples ran is the region's only where its fork could have run it.
  bool fork_passes_body(uint64_t fork_return_address, uint64_t entry);
  // Such a body named at its own entry: the line of its directive, in every compiler's line
  // table; `function` is the user function it was outlined from where the symbol says so (GCC).
  const SourceLocation& resolve_body(uint64_t entry);

 // Per module: its libbacktrace state and what was read of it (symbolizer.cpp).
  struct ModuleState;

 private:
  std::vector<ModuleRange> modules_;
  std::vector<ModuleState*> states_;  // parallel to modules_, found on first need (one per file and process)
  std::unordered_map<uint64_t, SourceLocation> cache_;
  std::unordered_map<uint64_t, SourceLocation> call_cache_;
  void locate(SourceLocation& location, uint64_t address, bool call_itself);
  std::unordered_map<uint64_t, SourceLocation> body_cache_;
  std::unordered_map<uint64_t, uint64_t> entry_cache_;
  std::unordered_map<uint64_t, uint64_t> tail_cache_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> forked_bodies_cache_;  // by fork return address, sorted
  struct Lookup;
  Lookup find(uint64_t address);
};

// True for the symbol of a compiler-outlined parallel-region body.
bool is_outlined_body_name(const std::string& symbol);

// True for the path of an OpenMP runtime library (libomp, libgomp, libiomp).
bool is_openmp_runtime(const std::string& module_path);

// True for a library the system installed (/lib, /lib64, /usr/lib, /usr/lib64: libc, libm,
// libstdc++, the OpenMP runtimes): a line of its is none the user can change, so it is named by
// its function symbols alone and its debug info is never read (libc6-dbg's compressed DWARF cost
// every command ~27 ms: a 135 ms program's `profile` took 200-223 ms).
bool is_system_library(const std::string& module_path);

// True for ompscope's own libraries in the program (libompscope*.so: the capture's records and
// drains), which a sample there names "(ompscope's capture)" and no line: as a system library,
// named by its function symbols alone, its debug info never read (libbacktrace parsing
// libompscope.so's DWARF was half of the CLI's CPU after `profile` of a 0.4 s program).
bool is_tool_library(const std::string& module_path);

}  // namespace ompscope::analysis
