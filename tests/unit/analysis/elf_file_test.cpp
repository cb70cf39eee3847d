// The one ELF reader (analysis/elf_file.h), on this test's own executable, whose contents the
// test can see from inside: its needed libraries, its undefined symbols, its build id, a function
// of it with its code, byte for byte as loaded; and a file that is no ELF file, for which every
// reading is empty.
#include "analysis/elf_file.h"

#include <dlfcn.h>
#include <sys/auxv.h>

#include <gtest/gtest.h>

#include "analysis/symbolizer.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ompscope::analysis {
namespace {

extern "C" __attribute__((noinline, used)) int ompscope_elf_file_test_function(int x) { return x * 7 + 3; }

std::string own_executable() { return std::filesystem::canonical("/proc/self/exe").string(); }


TEST(ElfFile, ReadsThisExecutablesLibrariesSymbolsBuildIdFunctionsAndCode) {
  const std::string self = own_executable();
  EXPECT_TRUE(is_elf_file(self));
  const std::vector<std::string> needed = elf_needed_libraries(self);
  EXPECT_NE(std::find(needed.begin(), needed.end(), "libc.so.6"), needed.end());
  const std::vector<std::string> undefined = elf_undefined_symbols(self);
  EXPECT_NE(std::find(undefined.begin(), undefined.end(), "dl_iterate_phdr"), undefined.end());
  EXPECT_EQ(elf_build_id(self).size(), 40u);  // a 20-byte SHA-1 build id, as Debian's linker writes
  // Its loader, as the kernel read it to start this test: the one mapped into this process.
  const std::string loader = elf_interpreter(self);
  ASSERT_FALSE(loader.empty());
  EXPECT_EQ(loader.find('\0'), std::string::npos);
  Dl_info in_loader{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(getauxval(AT_BASE)), &in_loader), 0);
  EXPECT_EQ(std::filesystem::canonical(loader), std::filesystem::canonical(in_loader.dli_fname));
  const std::vector<ElfFunction> functions = elf_functions(self);
  const auto f = std::find_if(functions.begin(), functions.end(),
                              [](const ElfFunction& g) { return g.name == "ompscope_elf_file_test_function"; });
  ASSERT_NE(f, functions.end());
  EXPECT_EQ(f->address + own_executable_load_bias(), reinterpret_cast<uint64_t>(&ompscope_elf_file_test_function));
  ASSERT_GT(f->size, 0u);
  const std::vector<uint8_t> code = elf_x86_64_code(self, f->address, f->size);
  ASSERT_EQ(code.size(), f->size);
  EXPECT_EQ(std::memcmp(code.data(), reinterpret_cast<const void*>(&ompscope_elf_file_test_function), code.size()), 0);
}

TEST(ElfFile, AFileThatIsNoElfFileReadsAsEmpty) {
  const std::string path = std::filesystem::temp_directory_path() / "ompscope-elf-file-test-not-elf";
  std::ofstream(path) << "not an ELF file\n";
  EXPECT_FALSE(is_elf_file(path));
  EXPECT_TRUE(elf_needed_libraries(path).empty());
  EXPECT_TRUE(elf_undefined_symbols(path).empty());
  EXPECT_TRUE(elf_build_id(path).empty());
  EXPECT_TRUE(elf_interpreter(path).empty());
  EXPECT_TRUE(elf_functions(path).empty());
  EXPECT_TRUE(elf_x86_64_code(path, 0x1000, 16).empty());
  std::filesystem::remove(path);
  EXPECT_FALSE(is_elf_file(path));  // nor a missing one
}

// A system library (symbolizer.h, is_system_library) is named by its function symbols alone, with
// no line and no debug info read: this process's libc, at the address of its qsort (msort.c, whose
// line libc6-dbg's DWARF holds), is "qsort" and no line.
TEST(Symbolizer, ASystemLibraryIsNamedByItsSymbolsWithoutALine) {
  // libc's own qsort, not a sanitizer's interceptor of it linked into this test (ASan's).
  void* handle = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  void* qsort_in_libc = dlsym(handle, "qsort");
  ASSERT_NE(qsort_in_libc, nullptr);
  Dl_info libc{};
  ASSERT_NE(dladdr(qsort_in_libc, &libc), 0);
  const std::string libc_path = std::filesystem::canonical(libc.dli_fname).string();
  ASSERT_TRUE(is_system_library(libc_path)) << libc_path;
  ASSERT_FALSE(is_system_library(own_executable()));
  Dl_info self{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&ompscope_elf_file_test_function), &self), 0);
  const auto bias = [](const Dl_info& d) { return reinterpret_cast<uint64_t>(d.dli_fbase); };
  Symbolizer symbols({{bias(libc), bias(libc), bias(libc) + (1ull << 30), libc_path},
                      {0, 1, bias(libc), own_executable()}});
  const SourceLocation& in_libc = symbols.resolve(reinterpret_cast<uint64_t>(qsort_in_libc) + 1);
  dlclose(handle);
  EXPECT_EQ(in_libc.function, "qsort");
  EXPECT_TRUE(in_libc.file.empty()) << in_libc.file;
  EXPECT_EQ(in_libc.line, 0);
}

// A module that is no file (the vDSO, "linux-vdso.so.1" in a run's module map; a library deleted
// since) is named by its offset alone. libbacktrace, given a name it cannot open, reads
// /proc/self/exe instead: the analysing program's own debug info, which named the vDSO's addresses
// after ompscope's functions and cost 12 ms of a 53 ms `report`. Here the module covers this
// test's own function at this test's own bias, so that fallback would name it.
TEST(Symbolizer, AModuleThatIsNoFileIsNamedByItsOffsetAlone) {
  Dl_info self{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&ompscope_elf_file_test_function), &self), 0);
  const auto base = reinterpret_cast<uint64_t>(self.dli_fbase);
  Symbolizer symbols({{base, base, base + (1ull << 30), "linux-vdso.so.1"}});
  const SourceLocation& at = symbols.resolve(reinterpret_cast<uint64_t>(&ompscope_elf_file_test_function) + 1);
  EXPECT_TRUE(at.function.empty()) << at.function;
  EXPECT_TRUE(at.file.empty()) << at.file;
  EXPECT_EQ(at.module, "linux-vdso.so.1");
  EXPECT_EQ(at.file_line().rfind("linux-vdso.so.1+0x", 0), 0u) << at.file_line();
}

}  // namespace
}  // namespace ompscope::analysis
