//===- HostBackend.h - run a kernel compiled for the CPU --------*- C++ -*-===//
//
// The host backend calls `void kernel(void *, ..., void *)` from a shared
// library: the same ABI as the GPU kernel (bare pointers to dense row-major
// buffers, inputs first), so the whole check path runs on machines without a
// GPU. A kernel with a dynamic outermost dim takes one more pointer, to the
// value of that dim: `void kernel(void *in..., void *out..., const int64_t
// *dim)` (docs/dynamic-shapes.md, section 4). Every argument is a data
// pointer, and the C ABIs sol runs on (x86-64 SysV, AArch64 AAPCS) pass all
// data pointers alike, so the one `void *` call path serves both: callAtDim
// appends the pointer to the dim.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_HOSTBACKEND_H
#define SOL_RUNTIME_HOSTBACKEND_H

#include <cstdint>
#include <string>
#include <vector>

namespace sol {
namespace runtime {

/// The most arguments a host kernel may take.
constexpr size_t maxHostKernelArgs = 32;

class HostKernel {
public:
  HostKernel() = default;
  HostKernel(const HostKernel &) = delete;
  HostKernel &operator=(const HostKernel &) = delete;
  ~HostKernel();

  /// dlopens `libraryPath` and resolves `entry`.
  bool load(const std::string &libraryPath, const std::string &entry,
            std::string &error);

  /// Calls the entry with `args` (at most maxHostKernelArgs).
  bool call(const std::vector<void *> &args, std::string &error) const;

  /// Calls a dynamic kernel's entry at M = `dim`: `args` (inputs, then
  /// outputs, each allocated at that M), then a pointer to `dim`, which the
  /// kernel reads during the call. The dim pointer counts toward
  /// maxHostKernelArgs.
  bool callAtDim(const std::vector<void *> &args, int64_t dim,
                 std::string &error) const;

private:
  void *library = nullptr;
  void *entry = nullptr;
};

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_HOSTBACKEND_H
