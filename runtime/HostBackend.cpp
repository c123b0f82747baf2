//===- HostBackend.cpp - run a kernel compiled for the CPU ----------------===//

#include "runtime/HostBackend.h"

#include <array>
#include <dlfcn.h>
#include <utility>

using namespace sol::runtime;

namespace {

/// A function pointer type taking one `void *` per index in I.
template <size_t I> using VoidPointer = void *;

template <size_t... I>
void callWithArgs(void *entry, void *const *args, std::index_sequence<I...>) {
  using EntryFunction = void (*)(VoidPointer<I>...);
  reinterpret_cast<EntryFunction>(entry)(args[I]...);
}

using Caller = void (*)(void *, void *const *);

template <size_t N> void callWithCount(void *entry, void *const *args) {
  callWithArgs(entry, args, std::make_index_sequence<N>());
}

/// callers[n] calls an entry with n pointer arguments: the table replaces a
/// hand-written switch of 33 function-pointer casts.
template <size_t... N>
constexpr std::array<Caller, sizeof...(N)>
makeCallers(std::index_sequence<N...>) {
  return {{&callWithCount<N>...}};
}

constexpr auto callers =
    makeCallers(std::make_index_sequence<maxHostKernelArgs + 1>());

} // namespace

HostKernel::~HostKernel() {
  if (library)
    dlclose(library);
}

bool HostKernel::load(const std::string &libraryPath, const std::string &name,
                      std::string &error) {
  library = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    error = "cannot load host kernel library '" + libraryPath +
            "': " + (reason ? reason : "unknown error");
    return false;
  }
  dlerror();
  entry = dlsym(library, name.c_str());
  if (!entry) {
    error =
        "host kernel library '" + libraryPath + "' has no entry '" + name + "'";
    return false;
  }
  return true;
}

bool HostKernel::call(const std::vector<void *> &args,
                      std::string &error) const {
  if (!entry) {
    error = "host kernel not loaded";
    return false;
  }
  if (args.size() > maxHostKernelArgs) {
    error = "host kernel takes " + std::to_string(args.size()) +
            " arguments; at most " + std::to_string(maxHostKernelArgs) +
            " are supported";
    return false;
  }
  callers[args.size()](entry, args.data());
  return true;
}

bool HostKernel::callAtDim(const std::vector<void *> &args, int64_t dim,
                           std::string &error) const {
  std::vector<void *> withDim(args);
  withDim.push_back(&dim);
  return call(withDim, error);
}
