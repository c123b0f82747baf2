//===- Fp8RuntimeTest.cpp - fp8 dtypes in manifests, inputs, reference ----===//
//
// The runtime's side of fp8 (docs/fp8.md): the manifest's f8e4m3fn/f8e5m2
// dtypes, the seeded inputs (fp8 codes, drawn as values and rounded as
// sol.cast rounds, so never a NaN code), and the program evaluator's scaled
// matmul, checked on fresh random codes at odd shapes against Fp8.h's
// float64 reference (referenceScaledMatmul, quantiseFp8Result), which shares
// no code with the evaluator's row walk.
//
//===----------------------------------------------------------------------===//

#include "runtime/Compare.h"
#include "runtime/Fp8.h"
#include "runtime/Manifest.h"
#include "runtime/Random.h"
#include "runtime/Reference.h"
#include "runtime/Runner.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>
#include <vector>

using namespace sol::runtime;

namespace {

TEST(Fp8RuntimeTest, DTypesParseNameAndSize) {
  for (auto [name, dtype] : {std::pair{"f8e4m3fn", DType::F8E4M3FN},
                             std::pair{"f8e5m2", DType::F8E5M2}}) {
    DType parsed = DType::F32;
    ASSERT_TRUE(parseDType(name, parsed)) << name;
    EXPECT_EQ(parsed, dtype);
    EXPECT_STREQ(getDTypeName(dtype), name);
    EXPECT_EQ(getDTypeSize(dtype), 1u);
    EXPECT_TRUE(isFp8DType(dtype));
  }
  DType parsed;
  // The MLIR spelling is not the manifest's.
  EXPECT_FALSE(parseDType("f8E4M3FN", parsed));
  EXPECT_FALSE(isFp8DType(DType::BF16));
}

/// Every code loads as Fp8.h decodes it, and stores back to itself (NaN
/// codes to the NaN code): the buffers hold codes, not another encoding.
TEST(Fp8RuntimeTest, EveryCodeLoadsAndStoresExactly) {
  for (DType dtype : {DType::F8E4M3FN, DType::F8E5M2}) {
    Fp8Kind kind = getFp8Kind(dtype);
    for (int code = 0; code < 256; ++code) {
      uint8_t byte = static_cast<uint8_t>(code);
      double value = loadElement(&byte, dtype, 0);
      double expected = decodeFp8(byte, kind);
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(value));
        continue;
      }
      EXPECT_EQ(value, expected) << getDTypeName(dtype) << " code " << code;
      if (std::isinf(expected)) {
        // e5m2's infinities load as such; storing one saturates (sol.cast).
        EXPECT_EQ(roundToDType(value, dtype),
                  std::copysign(getFp8MaxFinite(kind), value));
        continue;
      }
      uint8_t stored = 0xAA;
      storeElement(&stored, dtype, 0, value);
      // -0 and +0 are distinct codes and keep their signs.
      EXPECT_EQ(stored, byte) << getDTypeName(dtype) << " code " << code;
      EXPECT_EQ(roundToDType(value, dtype), value);
    }
    // Past the largest finite value the conversion saturates (sol.cast).
    EXPECT_EQ(roundToDType(1e9, dtype), getFp8MaxFinite(kind));
    EXPECT_EQ(roundToDType(-INFINITY, dtype), -getFp8MaxFinite(kind));
  }
}

/// A manifest of one fp8 matmul (A [m, k], B [n, k]) with its scales and an
/// epilogue of `epilogue` ("" for none) reading a bias [n].
std::string makeFp8Manifest(int64_t m, int64_t n, int64_t k,
                            const std::string &aType, const std::string &bType,
                            bool perToken, bool perChannel,
                            const std::string &outType) {
  auto dims = [](std::initializer_list<int64_t> values) {
    std::string text = "[";
    for (int64_t v : values)
      text += (text.size() > 1 ? ", " : "") + std::to_string(v);
    return text + "]";
  };
  bool fp8Out = outType.rfind("f8", 0) == 0;
  std::string saShape = perToken ? dims({m, 1}) : "[]";
  std::string sbShape = perChannel ? dims({n}) : dims({1});
  std::string text = R"({"kernel": "fp8_mm", "target": {"chip": "sm_90a"},
  "launch": {"grid": [1, 1, 1], "block": [1, 1, 1]},
  "args": [
    {"name": "a", "role": "input", "dtype": ")" +
                     aType + R"(", "shape": )" + dims({m, k}) + R"(},
    {"name": "b", "role": "input", "dtype": ")" +
                     bType + R"(", "shape": )" + dims({n, k}) + R"(},
    {"name": "sa", "role": "input", "dtype": "f32", "shape": )" +
                     saShape + R"(},
    {"name": "sb", "role": "input", "dtype": "f32", "shape": )" +
                     sbShape + R"(},
    {"name": "bias", "role": "input", "dtype": "bf16", "shape": )" +
                     dims({n}) + R"(},
    {"name": "so", "role": "input", "dtype": "f32", "shape": []},
    {"name": "out", "role": "output", "dtype": ")" +
                     outType + R"(", "shape": )" + dims({m, n}) + R"(}],
  "program": [
    {"op": "arg", "index": 0}, {"op": "arg", "index": 1},
    {"op": "arg", "index": 2}, {"op": "arg", "index": 3},
    {"op": "arg", "index": 4}, {"op": "arg", "index": 5},
    {"op": "matmul", "operands": [0, 1], "transpose_b": true,
     "scale_a": 2, "scale_b": 3)" +
                     std::string(fp8Out ? R"(, "scale_out": 5)" : "") +
                     R"(, "dtype": ")" + outType + R"(", "shape": )" +
                     dims({m, n}) + R"(})" +
                     std::string(fp8Out ? ""
                                        : R"(,
    {"op": "add", "operands": [6, 4], "dtype": "bf16", "shape": )" +
                                              dims({m, n}) + "}") +
                     R"(],
  "outputs": [)" + std::string(fp8Out ? "6" : "7") +
                     R"(]})";
  return text;
}

Fp8Scale readScale(const std::vector<uint8_t> &buffer, const ArgSpec &arg) {
  Fp8Scale scale;
  scale.values.clear();
  for (int64_t i = 0; i < arg.getNumElements(); ++i)
    scale.values.push_back(loadElement(buffer.data(), arg.dtype, i));
  return scale;
}

struct Fp8Case {
  int64_t m, n, k;
  const char *aType, *bType;
  bool perToken, perChannel;
  const char *outType;
};

/// The evaluator's output on the seeded inputs against Fp8.h's reference
/// of the same stored codes, per element: the scaled accumulator plus the
/// bias (both exact sums of the same products in the same order, so equal
/// in double), or the fp8 result's code.
TEST(Fp8RuntimeTest, ReferenceMatchesFp8ReferenceOnRandomCodes) {
  const Fp8Case cases[] = {
      {7, 13, 48, "f8e4m3fn", "f8e4m3fn", true, true, "bf16"},
      {1, 5, 16, "f8e4m3fn", "f8e4m3fn", false, false, "bf16"},
      {33, 9, 80, "f8e5m2", "f8e4m3fn", true, false, "bf16"},
      {6, 17, 32, "f8e4m3fn", "f8e5m2", false, true, "bf16"},
      {5, 11, 64, "f8e4m3fn", "f8e4m3fn", true, true, "f8e4m3fn"},
  };
  for (const Fp8Case &c : cases) {
    SCOPED_TRACE(std::string(c.aType) + " x " + c.bType + " -> " + c.outType +
                 " m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) +
                 " k=" + std::to_string(c.k));
    Manifest manifest;
    std::string error;
    ASSERT_TRUE(
        parseManifest(makeFp8Manifest(c.m, c.n, c.k, c.aType, c.bType,
                                      c.perToken, c.perChannel, c.outType),
                      "", manifest, error))
        << error;
    std::vector<std::vector<uint8_t>> buffers =
        makeArgBuffers(manifest, /*seed=*/0x5eed + c.m * 131 + c.k);
    // The inputs are fp8 codes of finite, non-zero values of both signs.
    for (int i : {0, 1}) {
      Fp8Kind kind = getFp8Kind(manifest.args[i].dtype);
      bool negative = false, positive = false;
      for (uint8_t code : buffers[i]) {
        double value = decodeFp8(code, kind);
        ASSERT_TRUE(std::isfinite(value)) << "code " << int(code);
        ASSERT_NE(value, 0.0);
        (value < 0 ? negative : positive) = true;
      }
      EXPECT_TRUE(negative && positive);
    }
    std::vector<const void *> inputs;
    for (const auto &buffer : buffers)
      inputs.push_back(buffer.data());
    ReferenceEvaluator evaluator(manifest, inputs);
    std::vector<double> got = evaluator.computeAll(manifest.outputs[0]);

    std::vector<double> expected = referenceScaledMatmul(
        buffers[0], getFp8Kind(manifest.args[0].dtype), buffers[1],
        getFp8Kind(manifest.args[1].dtype), c.m, c.n, c.k,
        readScale(buffers[2], manifest.args[2]),
        readScale(buffers[3], manifest.args[3]));
    ASSERT_EQ(got.size(), expected.size());
    DType outType = manifest.args.back().dtype;
    double scaleOut = loadElement(buffers[5].data(), DType::F32, 0);
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = 0; j < c.n; ++j) {
        double want = expected[i * c.n + j];
        if (isFp8DType(outType))
          want =
              decodeFp8(quantiseFp8Result(want, scaleOut, getFp8Kind(outType)),
                        getFp8Kind(outType));
        else
          want += loadElement(buffers[4].data(), DType::BF16, j);
        EXPECT_EQ(got[i * c.n + j], want) << "element " << i << ", " << j;
      }
  }
}

/// A scale the matmul cannot mean is refused where the manifest says it.
/// An fp8 result divides by scale_out, so sol-run draws it as it draws a
/// div's denominator (magnitudes 0.5 to 1.5: never near zero); a bf16
/// result's scales are drawn as any input.
TEST(Fp8RuntimeTest, ScaleOutIsDrawnAsADivisor) {
  for (const char *outType : {"f8e4m3fn", "bf16"}) {
    SCOPED_TRACE(outType);
    bool fp8Out = std::string(outType) != "bf16";
    Manifest manifest;
    std::string error;
    ASSERT_TRUE(parseManifest(
        makeFp8Manifest(3, 5, 16, "f8e4m3fn", "f8e4m3fn", true, true, outType),
        "", manifest, error))
        << error;
    std::vector<bool> divisors = findDivisorArgs(manifest);
    std::vector<bool> expected(manifest.args.size(), false);
    expected[5] = fp8Out;
    EXPECT_EQ(divisors, expected);
    for (uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
      double scaleOut =
          loadElement(makeArgBuffers(manifest, seed)[5].data(), DType::F32, 0);
      if (fp8Out)
        EXPECT_GE(std::fabs(scaleOut), 0.5) << "seed " << seed;
    }
  }
}

TEST(Fp8RuntimeTest, ManifestRefusesScalesItCannotMean) {
  std::string good =
      makeFp8Manifest(3, 5, 16, "f8e4m3fn", "f8e4m3fn", true, true, "bf16");
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest(good, "", manifest, error)) << error;
  struct Case {
    std::string from, to, expected;
  } cases[] = {
      // A per-token scale of the wrong length.
      {R"("name": "sa", "role": "input", "dtype": "f32", "shape": [3, 1])",
       R"("name": "sa", "role": "input", "dtype": "f32", "shape": [4, 1])",
       "\"scale_a\" has shape [4, 1]"},
      // A bf16 A against fp8 codes is weight-only: its A has no scale.
      {R"("name": "a", "role": "input", "dtype": "f8e4m3fn")",
       R"("name": "a", "role": "input", "dtype": "bf16")",
       "\"scale_a\" on a weight-only fp8 matmul, which takes scale_b "
       "alone"},
      // A scale names a later value.
      {R"("scale_a": 2)", R"("scale_a": 6)", "\"scale_a\""},
      // A bf16 result with scale_out.
      {R"("scale_b": 3)", R"("scale_b": 3, "scale_out": 5)",
       "only an fp8 result does"},
  };
  for (const Case &c : cases) {
    std::string text = good;
    size_t at = text.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    text.replace(at, c.from.size(), c.to);
    EXPECT_FALSE(parseManifest(text, "", manifest, error)) << c.to;
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << "expected: " << c.expected << "\nerror: " << error;
  }
}

/// Scales on a matmul of bf16 operands mean nothing: refused.
TEST(Fp8RuntimeTest, ManifestRefusesScalesOnSixteenBitOperands) {
  Manifest manifest;
  std::string error;
  EXPECT_FALSE(parseManifest(
      makeFp8Manifest(3, 5, 16, "bf16", "bf16", true, true, "bf16"), "",
      manifest, error));
  EXPECT_NE(error.find("\"scale_a\" on a matmul of non-fp8 operands"),
            std::string::npos)
      << error;
}

TEST(Fp8RuntimeTest, DefaultToleranceIsHalfAnUlpWithSlack) {
  EXPECT_EQ(getDefaultTolerance(DType::F8E4M3FN).rtol, 0.07);
  EXPECT_EQ(getDefaultTolerance(DType::F8E5M2).rtol, 0.13);
  // Half an ulp of e4m3fn at 1 is 2^-4 of it.
  EXPECT_GT(getDefaultTolerance(DType::F8E4M3FN).rtol,
            (decodeFp8(0x39, Fp8Kind::E4M3FN) - 1) / 2);
}

} // namespace
