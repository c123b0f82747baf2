//===- HostBackend.h - run a kernel compiled for the CPU --------*- C++ -*-===//
//
// The host backend calls `void kernel(void *, ..., void *)` from a shared
// library: the same ABI as the GPU kernel (bare pointers to dense row-major
// buffers, inputs first), so the whole check path runs on machines without a
// GPU.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_HOSTBACKEND_H
#define SOL_RUNTIME_HOSTBACKEND_H

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

private:
  void *library = nullptr;
  void *entry = nullptr;
};

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_HOSTBACKEND_H
