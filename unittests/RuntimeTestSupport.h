//===- RuntimeTestSupport.h - what the runtime tests share -----*- C++ -*-===//
//===//
//
// The kernel both test doubles implement (FakeCudaDriver.c's "add_f32*",
// HostKernelFixture.c's "add_f32") is out = a + b in f32; the runner, launch
// and C API tests describe it with the manifest built here and vary only its
// leading fields (kernel, launch, tensor maps, ...), edit manifests with the
// text helpers, and run them on the fake driver. The C API test includes it
// for the manifest alone and links no runtime library.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_UNITTESTS_RUNTIMETESTSUPPORT_H
#define SOL_UNITTESTS_RUNTIMETESTSUPPORT_H

#ifdef SOL_FAKE_CUDA_DRIVER
#include "FakeCudaDriver.h"

#include <dlfcn.h>
#endif
#include "runtime/Manifest.h"
#include "runtime/Runner.h"

#include "gtest/gtest.h"

#include <fstream>
#include <string>

namespace sol::test {

/// The manifest of out[shape] = a + b (f32), after `head`: the other
/// top-level fields, each followed by a comma.
inline std::string addF32Manifest(const std::string &head,
                                  const std::string &shape = "[3, 5]") {
  auto arg = [&](const char *name, const char *role) {
    return std::string(R"({"name": ")") + name + R"(", "role": ")" + role +
           R"(", "dtype": "f32", "shape": )" + shape + "}";
  };
  return "{" + head + R"( "args": [)" + arg("a", "input") + ", " +
         arg("b", "input") + ", " + arg("out", "output") +
         R"(], "program": [{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
         {"op": "add", "operands": [0, 1], "dtype": "f32", "shape": )" +
         shape + R"(}], "outputs": [2]})";
}

/// `text` with the first `from` (which must occur) replaced by `to`.
inline std::string replaceFirst(std::string text, const std::string &from,
                                const std::string &to) {
  size_t position = text.find(from);
  EXPECT_NE(position, std::string::npos) << from;
  if (position != std::string::npos)
    text.replace(position, from.size(), to);
  return text;
}

/// `text` with every `from` (at least one must occur) replaced by `to`.
inline std::string replaceAll(std::string text, const std::string &from,
                              const std::string &to) {
  size_t position = text.find(from);
  EXPECT_NE(position, std::string::npos) << from;
  for (; position != std::string::npos;
       position = text.find(from, position + to.size()))
    text.replace(position, from.size(), to);
  return text;
}

/// Writes `contents` to `prefix``name` under the test temp dir; returns its
/// path.
inline std::string writeTempFile(const std::string &prefix,
                                 const std::string &name,
                                 const std::string &contents) {
  std::string path = ::testing::TempDir() + "/" + prefix + name;
  std::ofstream(path) << contents;
  return path;
}

/// The error parseManifest gives `text` (which must be refused).
inline std::string manifestError(const std::string &text,
                                 const std::string &directory = "") {
  sol::runtime::Manifest manifest;
  std::string error;
  EXPECT_FALSE(sol::runtime::parseManifest(text, directory, manifest, error));
  return error;
}

#ifdef SOL_FAKE_CUDA_DRIVER
/// The fake driver's record: the same library instance the runner and the C
/// API dlopen (FakeCudaDriver.h).
inline FakeCudaRecord &getFakeRecord() {
  static void *handle = dlopen(SOL_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(handle, nullptr) << dlerror();
  return *static_cast<FakeCudaRecord *>(dlsym(handle, "fakeCudaRecord"));
}

/// Runs manifest `text` through sol-run's CUDA backend on the fake driver.
inline sol::runtime::RunResult runOnFakeDriver(const std::string &text,
                                               bool checkOnly = false) {
  sol::runtime::Manifest manifest;
  std::string error;
  EXPECT_TRUE(sol::runtime::parseManifest(text, "", manifest, error)) << error;
  sol::runtime::RunOptions options;
  options.cudaLibrary = SOL_FAKE_CUDA_DRIVER;
  options.checkOnly = checkOnly;
  options.iters = 10;
  options.reps = 3;
  return sol::runtime::Runner(options).run(manifest);
}
#endif

} // namespace sol::test

#endif // SOL_UNITTESTS_RUNTIMETESTSUPPORT_H
