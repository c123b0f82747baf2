//===- CAPILaunchTest.cpp - the C API's launch on the fake driver ---------===//
//
// sol_module_load and sol_kernel_launch (include/sol-c/sol.h) against the
// fake libcuda (FakeCudaDriver.c, named by SOL_CAPI_LIBCUDA): tensor maps
// encoded per launch and passed by value (no device memory, no
// synchronization), errors as strings, cluster launches. A binary of its own:
// it links libsol_capi.so, which must not share a process with the static sol
// libraries that SolUnitTests links (MLIR TypeIDs would be defined twice).
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"
#include "RuntimeTestSupport.h"

#include "sol-c/sol.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace {

using sol::test::getFakeRecord;
using sol::test::replaceFirst;

const std::string tmaManifest = sol::test::addF32Manifest(
    R"("kernel": "add_f32_tma",
  "launch": {"grid": [1, 1, 1], "block": [128, 1, 1]},
  "tensor_maps": [
    {"arg": 0, "dtype": "f32", "dims": [8, 3], "box": [8, 3]},
    {"arg": 1, "dtype": "f32", "dims": [8, 3], "box": [4, 1],
     "swizzle": "128B", "l2_promotion": "256B"}],)",
    "[3, 8]");

const std::string clusterManifest = sol::test::addF32Manifest(
    R"("kernel": "add_f32",
  "launch": {"grid": [8, 1, 1], "block": [32, 1, 1], "cluster": [4, 1, 1]},)");

/// Loads `kernel` of `manifest` on the fake driver; null (with the error
/// reported) on failure.
sol_loaded_kernel *load(const char *kernel, const std::string &manifest) {
  // Read at the C API's first driver load, so set before any call; the fake
  // has two devices here (DeviceOrdinalPicksTheContext).
  setenv("SOL_CAPI_LIBCUDA", SOL_FAKE_CUDA_DRIVER, 1);
  setenv("SOL_FAKE_CUDA_DEVICES", "2", 1);
  static const char image[] = "fake cubin";
  sol_loaded_kernel *loaded = nullptr;
  char *error = nullptr;
  if (sol_module_load(image, sizeof(image), kernel, manifest.c_str(), &loaded,
                      &error) != 0) {
    ADD_FAILURE() << error;
    sol_string_free(error);
  }
  return loaded;
}

/// Launches `kernel` on `pointers`; "" on success, else the error string.
std::string launch(sol_loaded_kernel *kernel, std::vector<float *> pointers) {
  std::vector<void *> args(pointers.begin(), pointers.end());
  char *error = nullptr;
  if (sol_kernel_launch(kernel, args.data(), args.size(), nullptr, &error) == 0)
    return "";
  std::string message = error ? error : "(no message)";
  sol_string_free(error);
  return message;
}

/// 256-byte aligned float buffers, as cuMemAlloc gives.
struct Buffers {
  std::vector<float *> buffers;
  float *make(size_t count, float first) {
    void *memory = nullptr;
    EXPECT_EQ(posix_memalign(&memory, 256, count * sizeof(float)), 0);
    float *data = static_cast<float *>(memory);
    for (size_t i = 0; i < count; ++i)
      data[i] = first + static_cast<float>(i);
    buffers.push_back(data);
    return data;
  }
  ~Buffers() {
    for (float *buffer : buffers)
      std::free(buffer);
  }
};

TEST(CAPILaunchTest, TensorMapsArePassedByValueAndEncodedPerLaunch) {
  getFakeRecord() = FakeCudaRecord();
  sol_loaded_kernel *kernel = load("add_f32_tma", tmaManifest);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(sol_loaded_kernel_num_args(kernel), 3u);
  Buffers buffers;
  float *a = buffers.make(24, 1), *b = buffers.make(24, 100);
  float *out = buffers.make(24, 0), *otherOut = buffers.make(24, 0);
  const FakeCudaRecord &record = getFakeRecord();
  int synchronizes = record.synchronizes;

  ASSERT_EQ(launch(kernel, {a, b, out}), "");
  EXPECT_EQ(out[23], 24 + 123);
  EXPECT_EQ(record.encodes, 2);
  EXPECT_EQ(record.mapMismatches, 0);
  // Args, then the maps by value: params 3 and 4 point at 128 host bytes
  // each (64-byte aligned) describing a and b.
  ASSERT_EQ(record.lastLaunch.numParams, 5);
  EXPECT_EQ(record.lastLaunch.params[0], reinterpret_cast<uintptr_t>(a));
  EXPECT_EQ(record.lastLaunch.params[3] % 64, 0u);
  EXPECT_EQ(record.lastLaunch.mapAddress[0], reinterpret_cast<uintptr_t>(a));
  EXPECT_EQ(record.lastLaunch.mapAddress[1], reinterpret_cast<uintptr_t>(b));
  EXPECT_EQ(record.encode[0].globalAddress, reinterpret_cast<uintptr_t>(a));
  EXPECT_EQ(record.encode[1].globalAddress, reinterpret_cast<uintptr_t>(b));
  EXPECT_EQ(record.encode[1].boxDim[0], 4u);
  EXPECT_EQ(record.encode[1].swizzle, 3);
  EXPECT_EQ(record.encode[1].l2Promotion, 3);
  EXPECT_EQ(record.encode[0].swizzle, 0);

  // Every launch encodes its own maps (host-only), with no cache.
  ASSERT_EQ(launch(kernel, {a, b, otherOut}), "");
  EXPECT_EQ(otherOut[0], 101);
  EXPECT_EQ(record.encodes, 4);
  // A new input buffer: maps over it.
  float *otherA = buffers.make(24, 1000);
  ASSERT_EQ(launch(kernel, {otherA, b, out}), "");
  EXPECT_EQ(out[0], 1100);
  EXPECT_EQ(record.encodes, 6);
  EXPECT_EQ(record.encode[4].globalAddress,
            reinterpret_cast<uintptr_t>(otherA));
  EXPECT_EQ(record.lastLaunch.mapAddress[0],
            reinterpret_cast<uintptr_t>(otherA));
  // Back to the first set.
  ASSERT_EQ(launch(kernel, {a, b, out}), "");
  EXPECT_EQ(out[0], 101);
  EXPECT_EQ(record.encodes, 8);
  EXPECT_EQ(record.lastLaunch.mapAddress[0], reinterpret_cast<uintptr_t>(a));
  EXPECT_EQ(record.mapMismatches, 0);
  EXPECT_EQ(record.launches, 4);

  sol_loaded_kernel_free(kernel);
  // Nothing on the device, nothing to wait for, nothing to free: safe to
  // capture in a CUDA graph.
  EXPECT_EQ(record.allocations, 0);
  EXPECT_EQ(record.frees, 0);
  EXPECT_EQ(record.synchronizes, synchronizes);
}

TEST(CAPILaunchTest, ManyBufferSetsAllocateNothing) {
  getFakeRecord() = FakeCudaRecord();
  sol_loaded_kernel *kernel = load("add_f32_tma", tmaManifest);
  ASSERT_NE(kernel, nullptr);
  Buffers buffers;
  float *b = buffers.make(24, 0), *out = buffers.make(24, 0);
  const FakeCudaRecord &record = getFakeRecord();
  for (int set = 0; set < 100; ++set) {
    float *a = buffers.make(24, static_cast<float>(set));
    ASSERT_EQ(launch(kernel, {a, b, out}), "");
    EXPECT_EQ(record.lastLaunch.mapAddress[0], reinterpret_cast<uintptr_t>(a));
    EXPECT_EQ(out[0], set);
  }
  EXPECT_EQ(record.encodes, 200);
  EXPECT_EQ(record.mapMismatches, 0);
  EXPECT_EQ(record.allocations, 0);
  EXPECT_EQ(record.frees, 0);
  EXPECT_EQ(record.synchronizes, 0);
  sol_loaded_kernel_free(kernel);
}

TEST(CAPILaunchTest, EncodeErrorsComeBackAsStrings) {
  getFakeRecord() = FakeCudaRecord();
  sol_loaded_kernel *kernel = load("add_f32_tma", tmaManifest);
  ASSERT_NE(kernel, nullptr);
  Buffers buffers;
  float *a = buffers.make(32, 0), *b = buffers.make(24, 0);
  float *out = buffers.make(24, 0);
  // a + 1 float is 4-byte aligned only: TMA needs 16.
  std::string error = launch(kernel, {a + 1, b, out});
  EXPECT_EQ(error.find("sol_kernel_launch: kernel 'add_f32_tma': "
                       "tensor_maps[0]: the buffer of arg 0 at 0x"),
            0u)
      << error;
  EXPECT_NE(error.find("is not 16-byte aligned (TMA needs 16)"),
            std::string::npos)
      << error;
  EXPECT_EQ(getFakeRecord().launches, 0);
  // A good set still works.
  ASSERT_EQ(launch(kernel, {a, b, out}), "");
  EXPECT_EQ(launch(kernel, {a, b}).find("takes 3 arguments, got 2"),
            std::string("sol_kernel_launch: kernel 'add_f32_tma' ").size());
  sol_loaded_kernel_free(kernel);
  EXPECT_EQ(getFakeRecord().allocations, 0);
}

TEST(CAPILaunchTest, ClusterLaunch) {
  getFakeRecord() = FakeCudaRecord();
  sol_loaded_kernel *kernel = load("add_f32", clusterManifest);
  ASSERT_NE(kernel, nullptr);
  Buffers buffers;
  float *a = buffers.make(15, 1), *b = buffers.make(15, 2);
  float *out = buffers.make(15, 0);
  ASSERT_EQ(launch(kernel, {a, b, out}), "");
  EXPECT_EQ(out[14], 15 + 16);
  const FakeCudaRecord &record = getFakeRecord();
  EXPECT_EQ(record.launchesEx, 1);
  EXPECT_EQ(record.lastLaunch.viaEx, 1);
  EXPECT_EQ(record.lastLaunch.attrId, 4);
  EXPECT_EQ(record.lastLaunch.cluster[0], 4u);
  EXPECT_EQ(record.lastLaunch.grid[0], 8u);
  EXPECT_EQ(record.encodes, 0);
  sol_loaded_kernel_free(kernel);
}

TEST(CAPILaunchTest, TensorMapsByValueInAClusterLaunch) {
  getFakeRecord() = FakeCudaRecord();
  std::string manifest =
      replaceFirst(tmaManifest, R"("grid": [1, 1, 1])",
                   R"("grid": [2, 1, 1], "cluster": [2, 1, 1])");
  sol_loaded_kernel *kernel = load("add_f32_tma", manifest.c_str());
  ASSERT_NE(kernel, nullptr);
  Buffers buffers;
  float *a = buffers.make(24, 1), *b = buffers.make(24, 100);
  float *out = buffers.make(24, 0);
  ASSERT_EQ(launch(kernel, {a, b, out}), "");
  EXPECT_EQ(out[23], 24 + 123);
  const FakeCudaRecord &record = getFakeRecord();
  EXPECT_EQ(record.launchesEx, 1);
  EXPECT_EQ(record.lastLaunch.cluster[0], 2u);
  EXPECT_EQ(record.lastLaunch.mapAddress[1], reinterpret_cast<uintptr_t>(b));
  EXPECT_EQ(record.mapMismatches, 0);
  EXPECT_EQ(record.allocations, 0);
  sol_loaded_kernel_free(kernel);
}

TEST(CAPILaunchTest, BadClusterIsALoadError) {
  setenv("SOL_CAPI_LIBCUDA", SOL_FAKE_CUDA_DRIVER, 1);
  setenv("SOL_FAKE_CUDA_DEVICES", "2", 1);
  std::string manifest =
      replaceFirst(clusterManifest, "[4, 1, 1]", "[3, 1, 1]");
  sol_loaded_kernel *loaded = nullptr;
  char *error = nullptr;
  EXPECT_NE(
      sol_module_load("x", 1, "add_f32", manifest.c_str(), &loaded, &error), 0);
  EXPECT_EQ(loaded, nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(std::string(error),
            "sol_module_load: launch: \"cluster\" [3, 1, 1] does not divide "
            "\"grid\" [8, 1, 1] (dim 0)");
  sol_string_free(error);
}

// A kernel loaded on device 1 lives in device 1's primary context, and each
// launch makes that context current (a framework's thread may have another
// device's); an ordinal no device has is a load error.
TEST(CAPILaunchTest, DeviceOrdinalPicksTheContext) {
  setenv("SOL_CAPI_LIBCUDA", SOL_FAKE_CUDA_DRIVER, 1);
  setenv("SOL_FAKE_CUDA_DEVICES", "2", 1);
  static const char image[] = "fake cubin";
  const std::string manifest = sol::test::addF32Manifest(
      R"("kernel": "add_f32", "launch": {"grid": [1, 1, 1], "block": [32, 1, 1]},)");
  sol_loaded_kernel *on1 = nullptr, *on0 = nullptr;
  char *error = nullptr;
  ASSERT_EQ(sol_module_load_on_device(image, sizeof(image), "add_f32",
                                      manifest.c_str(), 1, &on1, &error),
            0)
      << error;
  ASSERT_EQ(sol_module_load(image, sizeof(image), "add_f32", manifest.c_str(),
                            &on0, &error),
            0)
      << error;
  EXPECT_EQ(sol_loaded_kernel_device(on1), 1);
  EXPECT_EQ(sol_loaded_kernel_device(on0), 0);
  Buffers buffers;
  float *a = buffers.make(15, 1), *b = buffers.make(15, 2);
  float *out = buffers.make(15, 0);
  const FakeCudaRecord &record = getFakeRecord();
  ASSERT_EQ(launch(on1, {a, b, out}), "");
  EXPECT_EQ(record.launchDevice, 1);
  ASSERT_EQ(launch(on0, {a, b, out}), "");
  EXPECT_EQ(record.launchDevice, 0);
  ASSERT_EQ(launch(on1, {a, b, out}), "");
  EXPECT_EQ(record.launchDevice, 1);
  sol_loaded_kernel_free(on1);
  sol_loaded_kernel_free(on0);

  sol_loaded_kernel *missing = nullptr;
  EXPECT_NE(sol_module_load_on_device(image, sizeof(image), "add_f32",
                                      manifest.c_str(), 7, &missing, &error),
            0);
  EXPECT_EQ(missing, nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(std::string(error),
            "sol_module_load: CUDA device 7 does not exist (2 devices)");
  sol_string_free(error);
}

} // namespace

// A dynamic kernel (docs/dynamic-shapes.md): one image per plan row, loaded
// by sol_module_load_plans; sol_kernel_launch_dim launches the row holding M
// (here rows 1..2 name the fake's add_f32 and 3..3 its add_f32_wrong, which
// subtracts) on the grid its rule gives at M, launches nothing at M = 0 and
// refuses an M outside the range; the static entry points refuse it.
TEST(CAPILaunchTest, DynamicKernelLaunchesTheRowHoldingM) {
  getFakeRecord() = FakeCudaRecord();
  setenv("SOL_CAPI_LIBCUDA", SOL_FAKE_CUDA_DRIVER, 1);
  setenv("SOL_FAKE_CUDA_DEVICES", "2", 1);
  auto arg = [](const char *name, const char *role) {
    return std::string(R"({"name": ")") + name + R"(", "role": ")" + role +
           R"(", "dtype": "f32", "shape": [-1, 5]})";
  };
  std::string manifest =
      R"({"kernel": "add_rows", "dynamic_dim": {"min": 0, "max": 3},
  "args": [)" +
      arg("a", "input") + ", " + arg("b", "input") + ", " +
      arg("out", "output") +
      R"(], "program": [{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
  {"op": "add", "operands": [0, 1], "dtype": "f32", "shape": [-1, 5]}],
  "outputs": [2],
  "plans": [
   {"m_min": 0, "m_max": 2, "kernel": "add_f32",
    "launch": {"grid": [3, 1, 1], "block": [32, 1, 1],
               "grid_rows": {"axis": 0, "elements_per_dim": 5,
                             "elements_per_block": 4, "times": 1, "max": 0}}},
   {"m_min": 3, "m_max": 3, "kernel": "add_f32_wrong",
    "launch": {"grid": [1, 3, 1], "block": [32, 1, 1],
               "grid_rows": {"axis": 1, "elements_per_dim": 1,
                             "elements_per_block": 1, "times": 1,
                             "max": 0}}}]})";
  static const char image0[] = "fake cubin 0", image1[] = "fake cubin 1";
  const void *images[] = {image0, image1};
  size_t sizes[] = {sizeof(image0), sizeof(image1)};
  sol_loaded_kernel *kernel = nullptr;
  char *error = nullptr;

  ASSERT_NE(sol_module_load(image0, sizeof(image0), "add_rows",
                            manifest.c_str(), &kernel, &error),
            0);
  EXPECT_NE(std::string(error).find("is dynamic (M in [0, 3]): load its 2 "
                                    "plan rows' images with "
                                    "sol_module_load_plans"),
            std::string::npos)
      << error;
  sol_string_free(error);
  ASSERT_EQ(sol_module_load_plans(images, sizes, 2, "add_rows",
                                  manifest.c_str(), 0, &kernel, &error),
            0)
      << error;
  int64_t low = -1, high = -1;
  EXPECT_EQ(sol_loaded_kernel_dim_range(kernel, &low, &high), 1);
  EXPECT_EQ(low, 0);
  EXPECT_EQ(high, 3);

  Buffers buffers;
  float *a = buffers.make(15, 1), *b = buffers.make(15, 2);
  float *out = buffers.make(15, 0);
  void *args[] = {a, b, out};
  auto launchAt = [&](int64_t m) {
    char *message = nullptr;
    if (sol_kernel_launch_dim(kernel, args, 3, m, nullptr, &message) == 0)
      return std::string();
    std::string text = message ? message : "(no message)";
    sol_string_free(message);
    return text;
  };
  const FakeCudaRecord &record = getFakeRecord();
  // M = 1 and 2: the first row, its grid ceil(M * 5 / 4).
  ASSERT_EQ(launchAt(1), "");
  EXPECT_EQ(out[0], 1 + 2);
  EXPECT_EQ(record.lastLaunch.grid[0], 2u);
  ASSERT_EQ(launchAt(2), "");
  EXPECT_EQ(record.lastLaunch.grid[0], 3u);
  // M = 3: the second row's kernel, its grid along y.
  ASSERT_EQ(launchAt(3), "");
  EXPECT_EQ(out[0], 1 - 2);
  EXPECT_EQ(record.lastLaunch.grid[0], 1u);
  EXPECT_EQ(record.lastLaunch.grid[1], 3u);
  EXPECT_EQ(record.launches, 3);
  // M = 0: nothing launches.
  ASSERT_EQ(launchAt(0), "");
  EXPECT_EQ(record.launches, 3);
  EXPECT_EQ(launchAt(4), "sol_kernel_launch_dim: M = 4 is outside the range "
                         "[0, 3] of kernel 'add_rows' (its \"dynamic_dim\")");
  char *message = nullptr;
  ASSERT_NE(sol_kernel_launch(kernel, args, 3, nullptr, &message), 0);
  EXPECT_EQ(std::string(message),
            "sol_kernel_launch: kernel 'add_rows' is dynamic (M in [0, 3]): "
            "launch it with sol_kernel_launch_dim");
  sol_string_free(message);
  EXPECT_EQ(record.launches, 3);
  sol_loaded_kernel_free(kernel);
}
