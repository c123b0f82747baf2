//===- LaunchTest.cpp - tensor maps and cluster launches ------------------===//
//
// The manifest's "tensor_maps" and "launch": {"cluster"}, the pure
// computation of cuTensorMapEncodeTiled's arguments, and the runner driving
// both through the fake driver (FakeCudaDriver.c), which records what it was
// called with: no GPU needed.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"
#include "RuntimeTestSupport.h"

#include "runtime/CudaDriver.h"
#include "runtime/Launch.h"
#include "runtime/Manifest.h"
#include "runtime/Runner.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <dlfcn.h>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using namespace sol::runtime;
using namespace sol::runtime::cuda;
using namespace sol::test;

namespace {

/// out[3, 8] = a + b in f32, with a tensor map over each input and PTX
/// `ptx` (a placeholder replaced by the caller). The fake's "add_f32_tma"
/// reads a and b through the maps.
const std::string tmaManifest = sol::test::addF32Manifest(
    R"("kernel": "KERNEL", "ptx": "PTX",
  "target": {"chip": "sm_90a", "l2_bytes": 1048576},
  "launch": {"grid": [4, 2, 1], "block": [128, 1, 1], "smem": 1024},
  "tensor_maps": [
    {"arg": 0, "dtype": "f32", "dims": [8, 3], "box": [4, 2],
     "swizzle": "32B", "l2_promotion": "128B", "oob_fill": "nan"},
    {"arg": 1, "dtype": "f32", "dims": [8, 3], "box": [8, 3],
     "swizzle": "none", "l2_promotion": "none", "oob_fill": "zero"}],
  "cost": {"tc_flops": 0, "ew_flops": 24, "bytes": 288, "t_ideal_us": 0.5,
           "t_pred_us": 2, "sol_pred": 0.25, "bound": "latency"},)",
    "[3, 8]");

/// out[3, 5] = a + b in f32 launched in clusters of CLUSTER over a [4, 2, 1]
/// grid (the fake's "add_f32").
const std::string clusterManifest = sol::test::addF32Manifest(
    R"("kernel": "add_f32", "ptx": "PTX",
  "launch": {"grid": [4, 2, 1], "block": [32, 1, 1], "cluster": CLUSTER},)");

std::string tmaManifestText(const std::string &ptx = "k.ptx",
                            const std::string &kernel = "add_f32_tma") {
  return replaceAll(replaceAll(tmaManifest, "KERNEL", kernel), "PTX", ptx);
}

std::string clusterManifestText(const std::string &cluster,
                                const std::string &ptx = "k.ptx") {
  return replaceAll(replaceAll(clusterManifest, "CLUSTER", cluster), "PTX",
                    ptx);
}

//===----------------------------------------------------------------------===//
// Manifest fields
//===----------------------------------------------------------------------===//

TEST(LaunchManifestTest, ParsesTensorMaps) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest(tmaManifestText(), "", manifest, error)) << error;
  ASSERT_EQ(manifest.tensorMaps.size(), 2u);
  EXPECT_EQ(manifest.getNumKernelParams(), 5u);
  const TensorMapSpec &first = manifest.tensorMaps[0];
  EXPECT_EQ(first.arg, 0);
  EXPECT_EQ(first.dtype, DType::F32);
  EXPECT_EQ(first.dims, (std::vector<int64_t>{8, 3}));
  EXPECT_EQ(first.box, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(first.swizzleBytes, 32u);
  EXPECT_EQ(first.l2PromotionBytes, 128u);
  EXPECT_TRUE(first.oobFillNan);
  const TensorMapSpec &second = manifest.tensorMaps[1];
  EXPECT_EQ(second.arg, 1);
  EXPECT_EQ(second.swizzleBytes, 0u);
  EXPECT_EQ(second.l2PromotionBytes, 0u);
  EXPECT_FALSE(second.oobFillNan);
  EXPECT_FALSE(manifest.launch.hasCluster());
}

TEST(LaunchManifestTest, TensorMapsAreOptionalAndSoAreTheirModes) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(
      parseManifest(clusterManifestText("[1, 1, 1]"), "", manifest, error))
      << error;
  EXPECT_TRUE(manifest.tensorMaps.empty());
  EXPECT_EQ(manifest.getNumKernelParams(), 3u);
  // swizzle, l2_promotion and oob_fill default to none, none and zero.
  std::string text = replaceAll(tmaManifestText(),
                                R"(,
     "swizzle": "none", "l2_promotion": "none", "oob_fill": "zero")",
                                "");
  ASSERT_TRUE(parseManifest(text, "", manifest, error)) << error;
  EXPECT_EQ(manifest.tensorMaps[1].swizzleBytes, 0u);
  EXPECT_EQ(manifest.tensorMaps[1].l2PromotionBytes, 0u);
  EXPECT_FALSE(manifest.tensorMaps[1].oobFillNan);
}

TEST(LaunchManifestTest, TensorMapErrorsNameTheField) {
  std::string text = tmaManifestText();
  auto withFirst = [&](const std::string &from, const std::string &to) {
    return manifestError(replaceFirst(text, from, to));
  };
  EXPECT_EQ(withFirst("\"arg\": 0", "\"arg\": 3"),
            "tensor_maps[0]: \"arg\" 3 out of range (3 args)");
  EXPECT_EQ(withFirst("\"arg\": 0", "\"arg\": -1"),
            "tensor_maps[0]: \"arg\" = -1 out of range (0 to 2147483647)");
  EXPECT_EQ(withFirst("\"arg\": 0, ", ""),
            "tensor_maps[0]: missing field \"arg\"");
  EXPECT_EQ(withFirst("\"arg\": 0, \"dtype\": \"f32\"",
                      "\"arg\": 0, \"dtype\": \"f64\""),
            "tensor_maps[0]: unknown dtype \"f64\" (expected f16, bf16, f32, "
            "f8e4m3fn or f8e5m2)");
  EXPECT_EQ(withFirst("\"arg\": 0, \"dtype\": \"f32\"",
                      "\"arg\": 0, \"dtype\": \"f16\""),
            "tensor_maps[0]: \"dtype\" f16 differs from arg 0 (\"a\", f32 "
            "[3, 8])");
  EXPECT_EQ(withFirst("\"dims\": [8, 3]", "\"dims\": [8, 4]"),
            "tensor_maps[0]: \"dims\" [8, 4] hold 32 elements but arg 0 "
            "(\"a\", f32 [3, 8]) has 24");
  EXPECT_EQ(withFirst("\"dims\": [8, 3]", "\"dims\": [1, 1, 1, 1, 8, 3]"),
            "tensor_maps[0]: \"dims\" needs 1 to 5 entries, got 6");
  EXPECT_EQ(withFirst("\"box\": [4, 2]", "\"box\": [4]"),
            "tensor_maps[0]: \"box\" has 1 entries but \"dims\" has 2");
  EXPECT_EQ(withFirst("\"box\": [4, 2]", "\"box\": [4, 0]"),
            "tensor_maps[0]: \"box\"[1] = 0 out of range (1 to "
            "9007199254740992)");
  EXPECT_EQ(withFirst("\"box\": [4, 2]", "\"box\": [4, 257]"),
            "tensor_maps[0]: \"box\"[1] = 257 out of range (1 to 256)");
  EXPECT_EQ(withFirst("\"swizzle\": \"32B\"", "\"swizzle\": \"16B\""),
            "tensor_maps[0]: \"swizzle\" must be \"none\", \"32B\", \"64B\" "
            "or \"128B\", got \"16B\"");
  EXPECT_EQ(
      withFirst("\"l2_promotion\": \"128B\"", "\"l2_promotion\": \"512B\""),
      "tensor_maps[0]: \"l2_promotion\" must be \"none\", \"64B\", \"128B\" "
      "or \"256B\", got \"512B\"");
  EXPECT_EQ(withFirst("\"oob_fill\": \"nan\"", "\"oob_fill\": \"inf\""),
            "tensor_maps[0]: \"oob_fill\" must be \"zero\" or \"nan\", got "
            "\"inf\"");
  // A box row wider than the swizzle span, and one that is not whole 16-byte
  // units: both the driver would refuse.
  EXPECT_EQ(withFirst("\"box\": [4, 2]", "\"box\": [16, 2]"),
            "tensor_maps[0]: \"box\"[0] = 16 spans 64 bytes, more than the "
            "32B \"swizzle\" span");
  EXPECT_EQ(withFirst("\"box\": [4, 2]", "\"box\": [2, 2]"),
            "tensor_maps[0]: \"box\"[0] = 2 spans 8 bytes, not a multiple of "
            "16 (TMA copies 16-byte units)");
  EXPECT_EQ(manifestError(replaceAll(clusterManifestText("[1]"), "\"outputs\"",
                                     "\"tensor_maps\": 3, \"outputs\"")),
            "manifest: \"tensor_maps\" must be an array");
  EXPECT_EQ(manifestError(replaceAll(clusterManifestText("[1]"), "\"outputs\"",
                                     "\"tensor_maps\": [3], \"outputs\"")),
            "tensor_maps[0] must be an object");
  EXPECT_EQ(
      withFirst("\"dims\": [8, 3]", "\"dims\": [8, 4294967297]"),
      "tensor_maps[0]: \"dims\"[1] = 4294967297 out of range (1 to 2^32)");
  // A null "tensor_maps" is none at all.
  sol::runtime::Manifest manifest;
  std::string error;
  EXPECT_TRUE(
      parseManifest(replaceAll(clusterManifestText("[1]"), "\"outputs\"",
                               "\"tensor_maps\": null, \"outputs\""),
                    "", manifest, error))
      << error;
  EXPECT_TRUE(manifest.tensorMaps.empty());
}

TEST(LaunchManifestTest, TensorMapStridesMustBeWhole16Bytes) {
  // [3, 5] f32: the outer dim's stride is 5 * 4 = 20 bytes.
  std::string text = replaceAll(tmaManifestText(), "[3, 8]", "[3, 5]");
  text = replaceAll(text, "[8, 3]", "[5, 3]");
  EXPECT_EQ(manifestError(text),
            "tensor_maps[0]: \"dims\" [5, 3]: the stride of dim 1 is 20 "
            "bytes, not a multiple of 16 (TMA needs 16-byte strides)");
}

TEST(LaunchManifestTest, ParsesClusters) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(
      parseManifest(clusterManifestText("[2, 2, 1]"), "", manifest, error))
      << error;
  EXPECT_TRUE(manifest.launch.hasCluster());
  EXPECT_EQ(manifest.launch.cluster[0], 2u);
  EXPECT_EQ(manifest.launch.cluster[1], 2u);
  EXPECT_EQ(manifest.launch.cluster[2], 1u);
  // Missing trailing dims are 1; [1, 1, 1] is a plain launch.
  ASSERT_TRUE(parseManifest(clusterManifestText("[4]"), "", manifest, error))
      << error;
  EXPECT_EQ(manifest.launch.cluster[0], 4u);
  EXPECT_EQ(manifest.launch.cluster[1], 1u);
  ASSERT_TRUE(
      parseManifest(clusterManifestText("[1, 1, 1]"), "", manifest, error))
      << error;
  EXPECT_FALSE(manifest.launch.hasCluster());
}

TEST(LaunchManifestTest, ClusterErrors) {
  EXPECT_EQ(manifestError(clusterManifestText("[3, 1, 1]")),
            "launch: \"cluster\" [3, 1, 1] does not divide \"grid\" [4, 2, 1] "
            "(dim 0)");
  EXPECT_EQ(manifestError(clusterManifestText("[1, 1, 2]")),
            "launch: \"cluster\" [1, 1, 2] does not divide \"grid\" [4, 2, 1] "
            "(dim 2)");
  EXPECT_EQ(manifestError(clusterManifestText("[4, 2, 2]")),
            "launch: \"cluster\" [4, 2, 2] has more than 8 blocks (the "
            "portable cluster size)");
  EXPECT_EQ(manifestError(clusterManifestText("[16]")),
            "launch: \"cluster\" [16] has more than 8 blocks (the portable "
            "cluster size)");
  EXPECT_EQ(manifestError(clusterManifestText("[0, 1, 1]")),
            "launch: \"cluster\"[0] = 0 out of range (1 to 2147483647)");
  EXPECT_EQ(manifestError(clusterManifestText("[]")),
            "launch: \"cluster\" needs 1 to 3 entries");
  EXPECT_EQ(manifestError(clusterManifestText("[1, 1, 1, 1]")),
            "launch: \"cluster\" needs 1 to 3 entries");
  EXPECT_EQ(manifestError(clusterManifestText("2")),
            "launch: \"cluster\" must be an array of integers");
}

//===----------------------------------------------------------------------===//
// cuTensorMapEncodeTiled's arguments
//===----------------------------------------------------------------------===//

/// The seed o_proj's activation map: x[16, 512, 2560] f16 seen as
/// [8192, 2560] rows, 128 x 64 boxes, 128-byte swizzle.
struct EncodeArgsTest : public ::testing::Test {
  std::vector<ArgSpec> args;
  TensorMapSpec spec;

  void SetUp() override {
    ArgSpec x;
    x.name = "x";
    x.dtype = DType::F16;
    x.shape = {16, 512, 2560};
    ArgSpec w = x;
    w.name = "w";
    w.shape = {2560, 2560};
    ArgSpec out = x;
    out.name = "out";
    out.isOutput = true;
    args = {x, w, out};
    spec.arg = 0;
    spec.dtype = DType::F16;
    spec.dims = {2560, 8192};
    spec.box = {64, 128};
    spec.swizzleBytes = 128;
    spec.l2PromotionBytes = 256;
  }

  std::string error(CUdeviceptr address = 0x7f0000000000) {
    TensorMapEncodeArgs result;
    std::string message;
    EXPECT_FALSE(getTensorMapEncodeArgs(spec, args, address, result, message));
    return message;
  }
};

TEST_F(EncodeArgsTest, SeedActivationMap) {
  TensorMapEncodeArgs result;
  std::string message;
  ASSERT_TRUE(
      getTensorMapEncodeArgs(spec, args, 0x7f0000000200, result, message))
      << message;
  EXPECT_EQ(result.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(result.dataType, 6);
  EXPECT_EQ(result.rank, 2u);
  EXPECT_EQ(result.globalAddress, 0x7f0000000200ull);
  EXPECT_EQ(result.globalDim[0], 2560u);
  EXPECT_EQ(result.globalDim[1], 8192u);
  EXPECT_EQ(result.globalDim[2], 0u);
  EXPECT_EQ(result.globalStrides[0], 2560u * 2);
  EXPECT_EQ(result.globalStrides[1], 0u);
  EXPECT_EQ(result.boxDim[0], 64u);
  EXPECT_EQ(result.boxDim[1], 128u);
  EXPECT_EQ(result.elementStrides[0], 1u);
  EXPECT_EQ(result.elementStrides[1], 1u);
  EXPECT_EQ(result.elementStrides[2], 0u);
  EXPECT_EQ(result.interleave, 0);
  EXPECT_EQ(result.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(result.swizzle, 3);
  EXPECT_EQ(result.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(result.l2Promotion, 3);
  EXPECT_EQ(result.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

TEST_F(EncodeArgsTest, RankThreeStridesAreRunningProducts) {
  spec.dims = {2560, 512, 16};
  spec.box = {64, 128, 1};
  spec.swizzleBytes = 0;
  spec.l2PromotionBytes = 64;
  spec.oobFillNan = true;
  TensorMapEncodeArgs result;
  std::string message;
  ASSERT_TRUE(getTensorMapEncodeArgs(spec, args, 0x1000, result, message))
      << message;
  EXPECT_EQ(result.rank, 3u);
  EXPECT_EQ(result.globalStrides[0], 2560u * 2);
  EXPECT_EQ(result.globalStrides[1], 2560u * 512 * 2);
  EXPECT_EQ(result.globalStrides[2], 0u);
  EXPECT_EQ(result.boxDim[2], 1u);
  EXPECT_EQ(result.elementStrides[2], 1u);
  EXPECT_EQ(result.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
  EXPECT_EQ(result.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_64B);
  EXPECT_EQ(result.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}

TEST_F(EncodeArgsTest, DataTypesAndModes) {
  struct Case {
    DType dtype;
    int dataType;
  } cases[] = {{DType::F16, 6}, {DType::BF16, 9}, {DType::F32, 7}};
  for (const Case &c : cases) {
    args[1].dtype = c.dtype;
    spec.arg = 1;
    spec.dtype = c.dtype;
    spec.dims = {2560, 2560};
    spec.box = {16, 256};
    TensorMapEncodeArgs result;
    std::string message;
    ASSERT_TRUE(getTensorMapEncodeArgs(spec, args, 0x2000, result, message))
        << message;
    EXPECT_EQ(result.dataType, c.dataType);
    EXPECT_EQ(result.globalStrides[0], 2560u * getDTypeSize(c.dtype));
  }
  struct Mode {
    unsigned swizzleBytes, l2Bytes;
    int swizzle, l2;
  } modes[] = {{0, 0, 0, 0}, {32, 64, 1, 1}, {64, 128, 2, 2}, {128, 256, 3, 3}};
  spec.box = {8, 256}; // 32 bytes of f32: within every swizzle span
  for (const Mode &mode : modes) {
    spec.swizzleBytes = mode.swizzleBytes;
    spec.l2PromotionBytes = mode.l2Bytes;
    TensorMapEncodeArgs result;
    std::string message;
    ASSERT_TRUE(getTensorMapEncodeArgs(spec, args, 0x2000, result, message))
        << message;
    EXPECT_EQ(result.swizzle, mode.swizzle);
    EXPECT_EQ(result.l2Promotion, mode.l2);
  }
}

TEST_F(EncodeArgsTest, Errors) {
  spec.dtype = DType::BF16;
  EXPECT_EQ(error(), "\"dtype\" bf16 differs from arg 0 (\"x\", f16 [16, 512, "
                     "2560])");
  SetUp();
  spec.arg = 3;
  EXPECT_EQ(error(), "\"arg\" 3 out of range (3 args)");
  spec.arg = -1;
  EXPECT_EQ(error(), "\"arg\" -1 out of range (3 args)");
  SetUp();
  spec.dims = {5, 1638, 4}; // 5 f16 = 10 bytes
  spec.box = {8, 8, 1};
  spec.swizzleBytes = 0;
  ArgSpec odd = args[0];
  odd.shape = {5, 1638, 4};
  args[0] = odd;
  EXPECT_EQ(error(), "\"dims\" [5, 1638, 4]: the stride of dim 1 is 10 "
                     "bytes, not a multiple of 16 (TMA needs 16-byte "
                     "strides)");
  SetUp();
  spec.box = {64, 0};
  EXPECT_EQ(error(), "\"box\"[1] = 0 out of range (1 to 256)");
  spec.box = {64, 512};
  EXPECT_EQ(error(), "\"box\"[1] = 512 out of range (1 to 256)");
  SetUp();
  spec.dims = {2560, 8192, 1, 1, 1, 1};
  spec.box = {64, 128, 1, 1, 1, 1};
  EXPECT_EQ(error(), "\"dims\" needs 1 to 5 entries, got 6");
  SetUp();
  spec.swizzleBytes = 16;
  EXPECT_EQ(error(),
            "\"swizzle\" of 16 bytes (expected none, 32B, 64B or 128B)");
  SetUp();
  spec.l2PromotionBytes = 32;
  EXPECT_EQ(error(), "\"l2_promotion\" of 32 bytes (expected none, 64B, "
                     "128B or 256B)");
  SetUp();
  EXPECT_EQ(error(0x7f0000000008),
            "the buffer of arg 0 at 0x7f0000000008 is not 16-byte aligned "
            "(TMA needs 16)");
}

//===----------------------------------------------------------------------===//
// Launch configuration and driver support
//===----------------------------------------------------------------------===//

TEST(LaunchConfigTest, ClusterLaunchConfigLayout) {
  LaunchConfig launch;
  launch.grid[0] = 132;
  launch.grid[1] = 2;
  launch.block[0] = 384;
  launch.dynamicSharedBytes = 200704;
  launch.cluster[0] = 2;
  CUlaunchAttribute attribute;
  CUstream stream = reinterpret_cast<CUstream>(0x1234);
  CUlaunchConfig config = makeClusterLaunchConfig(launch, stream, attribute);
  EXPECT_EQ(config.gridDimX, 132u);
  EXPECT_EQ(config.gridDimY, 2u);
  EXPECT_EQ(config.gridDimZ, 1u);
  EXPECT_EQ(config.blockDimX, 384u);
  EXPECT_EQ(config.blockDimY, 1u);
  EXPECT_EQ(config.sharedMemBytes, 200704u);
  EXPECT_EQ(config.hStream, stream);
  EXPECT_EQ(config.numAttrs, 1u);
  EXPECT_EQ(config.attrs, &attribute);
  EXPECT_EQ(attribute.id, 4); // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
  EXPECT_EQ(attribute.value.clusterDim.x, 2u);
  EXPECT_EQ(attribute.value.clusterDim.y, 1u);
  EXPECT_EQ(attribute.value.clusterDim.z, 1u);
}

TEST(LaunchConfigTest, OldDriverIsAClearErrorOnlyWhenNeeded) {
  CudaDriver driver; // nothing resolved, as a driver without CUDA 12 calls
  std::string error;
  Manifest plain;
  ASSERT_TRUE(parseManifest(clusterManifestText("[1, 1, 1]"), "", plain, error))
      << error;
  EXPECT_TRUE(checkLaunchSupport(driver, plain, error));
  Manifest clustered;
  ASSERT_TRUE(
      parseManifest(clusterManifestText("[2, 1, 1]"), "", clustered, error))
      << error;
  EXPECT_FALSE(checkLaunchSupport(driver, clustered, error));
  EXPECT_EQ(error, "kernel 'add_f32' launches in clusters but the CUDA "
                   "driver does not export cuLaunchKernelEx (CUDA 12 or "
                   "newer needed)");
  Manifest tma;
  ASSERT_TRUE(parseManifest(tmaManifestText(), "", tma, error)) << error;
  EXPECT_FALSE(checkLaunchSupport(driver, tma, error));
  EXPECT_EQ(error, "kernel 'add_f32_tma' has \"tensor_maps\" but the CUDA "
                   "driver does not export cuTensorMapEncodeTiled (CUDA 12 "
                   "or newer needed)");
}

//===----------------------------------------------------------------------===//
// The runner on the fake driver
//===----------------------------------------------------------------------===//

std::string writeTempFile(const std::string &name,
                          const std::string &contents) {
  return sol::test::writeTempFile("sol-launch-test-", name, contents);
}

RunResult runOnFake(const std::string &text, bool checkOnly = false) {
  getFakeRecord() = FakeCudaRecord();
  return runOnFakeDriver(text, checkOnly);
}

TEST(LaunchRunnerTest, TensorMapsFollowTheArgsAndEachInputSet) {
  std::string ptx = writeTempFile("tma.ptx", "// fake module\n");
  RunResult result = runOnFake(tmaManifestText(ptx));
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(result.pass);
  ASSERT_TRUE(result.timed);
  // 288 B per set against a 1 MiB L2: capped at 32 sets, each with its own
  // two maps, and every launch read the maps of the buffers it was given.
  EXPECT_EQ(result.inputSets, 32);
  const FakeCudaRecord &record = getFakeRecord();
  EXPECT_EQ(record.encodes, 2 * 32);
  EXPECT_EQ(record.mapMismatches, 0);
  EXPECT_EQ(record.launches, 1 + 32 + 3 * 10);
  EXPECT_EQ(record.launchesEx, 0);
  // Args, then each map by value: kernelParams[3 + i] points at map i's
  // 128 host bytes (64-byte aligned), which describe that launch's buffers.
  const FakeCudaLaunch &launch = record.lastLaunch;
  ASSERT_EQ(launch.numParams, 5);
  EXPECT_EQ(launch.params[3] % 64, 0u);
  EXPECT_EQ(launch.params[4], launch.params[3] + 128);
  EXPECT_EQ(launch.mapAddress[0], launch.params[0]);
  EXPECT_EQ(launch.mapAddress[1], launch.params[1]);
  // Set 0's first map, the checked launch's: exactly what the manifest says.
  const FakeCudaEncode &encode = record.encode[0];
  EXPECT_EQ(encode.dataType, 7); // FLOAT32
  EXPECT_EQ(encode.rank, 2u);
  EXPECT_EQ(encode.globalDim[0], 8u);
  EXPECT_EQ(encode.globalDim[1], 3u);
  EXPECT_EQ(encode.globalStrides[0], 32u);
  EXPECT_EQ(encode.boxDim[0], 4u);
  EXPECT_EQ(encode.boxDim[1], 2u);
  EXPECT_EQ(encode.elementStrides[0], 1u);
  EXPECT_EQ(encode.elementStrides[1], 1u);
  EXPECT_EQ(encode.interleave, 0);
  EXPECT_EQ(encode.swizzle, 1);     // 32B
  EXPECT_EQ(encode.l2Promotion, 2); // 128B
  EXPECT_EQ(encode.oobFill, 1);     // NaN
  EXPECT_EQ(record.encode[1].swizzle, 0);
  EXPECT_EQ(record.encode[1].oobFill, 0);
  EXPECT_NE(record.encode[0].globalAddress, record.encode[1].globalAddress);
  EXPECT_NE(record.encode[0].globalAddress, record.encode[2].globalAddress);
  // No device memory for the maps: only the args' buffers, all freed; and
  // no synchronization for them either (only the checked launch's and the
  // warm-up's).
  EXPECT_EQ(record.allocations, 32 * 3);
  EXPECT_EQ(record.frees, record.allocations);
  EXPECT_EQ(record.synchronizes, 2);
}

TEST(LaunchKernelParamsTest, ArgsThenMapsByValue) {
  CudaDriver driver;
  std::string error;
  ASSERT_TRUE(driver.load(error, SOL_FAKE_CUDA_DRIVER)) << error;
  Manifest manifest;
  ASSERT_TRUE(parseManifest(tmaManifestText(), "", manifest, error)) << error;
  getFakeRecord() = FakeCudaRecord();
  CUdeviceptr pointers[3] = {0x10000, 0x20000, 0x30000};
  KernelParams params;
  ASSERT_TRUE(params.init(driver, manifest, pointers, error)) << error;
  ASSERT_EQ(params.size(), 5u);
  ASSERT_EQ(params.getMaps().size(), 2u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(*static_cast<CUdeviceptr *>(params.data()[i]), pointers[i]);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(params.data()[3 + i], &params.getMaps()[i]);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(params.data()[3 + i]) % 64, 0u);
    // The fake writes its magic, then the map's global address.
    const uint64_t *words = params.getMaps()[i].opaque;
    EXPECT_EQ(words[0], FAKE_CUDA_MAP_MAGIC);
    EXPECT_EQ(words[1], pointers[i]);
  }
  const FakeCudaRecord &record = getFakeRecord();
  EXPECT_EQ(record.encodes, 2);
  EXPECT_EQ(record.allocations, 0);
  EXPECT_EQ(record.synchronizes, 0);
  // Moving keeps what the params point at (the buffers move along).
  void *firstMap = params.data()[3];
  KernelParams moved = std::move(params);
  EXPECT_EQ(moved.data()[3], firstMap);
  EXPECT_EQ(*static_cast<CUdeviceptr *>(moved.data()[0]), pointers[0]);

  // A misaligned buffer: the encode error, naming the map.
  pointers[1] += 4;
  KernelParams bad;
  EXPECT_FALSE(bad.init(driver, manifest, pointers, error));
  EXPECT_EQ(error.find("tensor_maps[1]: the buffer of arg 1 at 0x20004 is "
                       "not 16-byte aligned"),
            0u)
      << error;

  // No maps: just the args.
  Manifest plain;
  ASSERT_TRUE(parseManifest(clusterManifestText("[1, 1, 1]"), "", plain, error))
      << error;
  KernelParams argsOnly;
  ASSERT_TRUE(argsOnly.init(driver, plain, pointers, error)) << error;
  EXPECT_EQ(argsOnly.size(), 3u);
  // Encodes so far: the two maps of the good set and the first map of the
  // bad one (refused at its second); the map-less kernel adds none.
  EXPECT_EQ(record.encodes, 2 + 1);
}

TEST(LaunchRunnerTest, PtxParamCountIncludesTheMaps) {
  std::string ptx = writeTempFile(
      "tma3.ptx",
      ".visible .entry add_f32_tma(.param .u64 a, .param .u64 b, .param .u64 "
      "out)\n{}");
  RunResult result = runOnFake(tmaManifestText(ptx));
  EXPECT_EQ(result.error, "argument count mismatch: PTX entry 'add_f32_tma' "
                          "takes 3 parameters, manifest has 3 args and 2 "
                          "tensor maps");
  // The maps by value, as the compiler declares them.
  ptx = writeTempFile(
      "tma5.ptx",
      ".visible .entry add_f32_tma(\n  .param .u64 a,\n  .param .u64 b,\n"
      "  .param .u64 out,\n  .param .align 64 .b8 add_f32_tma_param_3[128],\n"
      "  .param .align 64 .b8 add_f32_tma_param_4[128]\n)\n{}");
  result = runOnFake(tmaManifestText(ptx), /*checkOnly=*/true);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(result.pass);
}

TEST(LaunchRunnerTest, ClusterLaunchGoesThroughLaunchKernelEx) {
  std::string ptx = writeTempFile("cluster.ptx", "// fake module\n");
  RunResult result = runOnFake(clusterManifestText("[2, 1, 1]", ptx));
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(result.pass);
  const FakeCudaRecord &record = getFakeRecord();
  EXPECT_GT(record.launches, 1);
  EXPECT_EQ(record.launchesEx, record.launches);
  const FakeCudaLaunch &launch = record.lastLaunch;
  EXPECT_EQ(launch.viaEx, 1);
  EXPECT_EQ(launch.numAttrs, 1u);
  EXPECT_EQ(launch.attrId, 4);
  EXPECT_EQ(launch.cluster[0], 2u);
  EXPECT_EQ(launch.cluster[1], 1u);
  EXPECT_EQ(launch.cluster[2], 1u);
  EXPECT_EQ(launch.grid[0], 4u);
  EXPECT_EQ(launch.grid[1], 2u);
  EXPECT_EQ(launch.block[0], 32u);
  EXPECT_EQ(launch.numParams, 3);
  EXPECT_EQ(record.encodes, 0);

  // Without a cluster: plain cuLaunchKernel.
  result = runOnFake(clusterManifestText("[1, 1, 1]", ptx), true);
  EXPECT_TRUE(result.pass) << result.error;
  EXPECT_EQ(getFakeRecord().launches, 1);
  EXPECT_EQ(getFakeRecord().launchesEx, 0);
  EXPECT_EQ(getFakeRecord().lastLaunch.viaEx, 0);
}

TEST(LaunchRunnerTest, ResultBlockShowsClusterAndMaps) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest(tmaManifestText(), "", manifest, error)) << error;
  manifest.launch.cluster[0] = 2;
  RunResult result;
  result.kernel = manifest.kernel;
  result.backend = "cuda";
  std::string block = formatResultBlock(manifest, result);
  EXPECT_NE(block.find("smem 1024 B cluster [2, 1, 1]\n"), std::string::npos)
      << block;
  EXPECT_NE(block.find("  tma 0:    arg 0 dims [8, 3] box [4, 2] swizzle 32B\n"
                       "  tma 1:    arg 1 dims [8, 3] box [8, 3] swizzle "
                       "none\n"),
            std::string::npos)
      << block;
}

} // namespace
