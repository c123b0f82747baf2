//===- RunnerTest.cpp - the runtime: manifests, reference, checks --------===//
//
// Everything here runs without a GPU: the CUDA backend is only exercised for
// its clean failure when the driver is missing, and the host backend runs the
// fixtures in HostKernelFixture.c.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runner.h"
#include "RuntimeTestSupport.h"
#include "runtime/Compare.h"
#include "runtime/CudaDriver.h"
#include "runtime/HostBackend.h"
#include "runtime/Manifest.h"
#include "runtime/Random.h"
#include "runtime/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace sol::runtime;
using namespace sol::test;

namespace {

//===----------------------------------------------------------------------===//
// JSON text (nlohmann/json parses it; these pin what a manifest's reader
// makes of its errors)
//===----------------------------------------------------------------------===//

TEST(RunnerJsonTest, MalformedTextReportsWhereAndWhat) {
  struct Case {
    std::string text;
    const char *expected;
  } cases[] = {
      {"{\"a\": 1,}", "malformed JSON: parse error at line 1, column 9"},
      {"[1, 2", "malformed JSON: parse error at line 1, column 6"},
      {"{\"a\" 1}", "unexpected number literal; expected ':'"},
      {"\"abc", "missing closing quote"},
      {"{}\n  x", "line 2, column 3"},
      {"", "attempting to parse an empty input"},
      {"{\"a\": 1, \"a\": 2}", "malformed JSON: duplicate key \"a\""},
      // The same key in different objects is no duplicate.
      {"{\"o\": {\"a\": 1}, \"a\": {\"a\": 2}}",
       "manifest: missing field \"kernel\""},
      {"[1, -1e400]", "number overflow parsing '-1e400'"},
      {std::string(300, '[') + std::string(300, ']'),
       "malformed JSON: nesting deeper than 256"},
  };
  for (const Case &c : cases) {
    Manifest manifest;
    std::string error;
    EXPECT_FALSE(parseManifest(c.text, "", manifest, error)) << c.text;
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << "text: " << c.text << "\nerror: " << error;
  }
}

//===----------------------------------------------------------------------===//
// Manifests
//===----------------------------------------------------------------------===//

/// A valid manifest: out = cast(matmul(x, w^T) + bias) with a bias row.
const char *const validManifest = R"({
  "kernel": "mm_bias",
  "ptx": "mm_bias.ptx",
  "target": {"name": "h200", "chip": "sm_90a", "l2_bytes": 62914560,
             "peak_tflops": 989.0, "peak_gbps": 4800.0},
  "launch": {"grid": [2, 3, 1], "block": [128, 1, 1], "smem": 57344},
  "args": [{"name": "x", "role": "input", "dtype": "f16", "shape": [2, 4, 3]},
           {"name": "w", "role": "input", "dtype": "bf16", "shape": [5, 3]},
           {"name": "bias", "role": "input", "dtype": "f32", "shape": [5]},
           {"name": "out", "role": "output", "dtype": "f16", "shape": [2, 4, 5]}],
  "program": [{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
              {"op": "arg", "index": 2},
              {"op": "matmul", "operands": [0, 1], "transpose_b": true,
               "dtype": "f32", "shape": [2, 4, 5]},
              {"op": "add", "operands": [3, 2], "dtype": "f32", "shape": [2, 4, 5]},
              {"op": "cast", "operands": [4], "dtype": "f16", "shape": [2, 4, 5]}],
  "outputs": [5],
  "cost": {"tc_flops": 240, "ew_flops": 40, "bytes": 260, "t_ideal_us": 0.5,
           "t_pred_us": 2.5, "sol_pred": 0.2, "bound": "latency"},
  "plan": {"tile": [64, 64]}
})";

TEST(RunnerManifestTest, LoadsEveryField) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest(validManifest, "/dir", manifest, error)) << error;
  EXPECT_EQ(manifest.kernel, "mm_bias");
  EXPECT_EQ(manifest.ptxPath, "/dir/mm_bias.ptx");
  EXPECT_TRUE(manifest.cubinPath.empty());
  EXPECT_EQ(manifest.target.chip, "sm_90a");
  EXPECT_EQ(manifest.target.l2Bytes, 62914560);
  EXPECT_EQ(manifest.launch.grid[1], 3u);
  EXPECT_EQ(manifest.launch.dynamicSharedBytes, 57344u);
  ASSERT_EQ(manifest.args.size(), 4u);
  EXPECT_EQ(manifest.getNumInputs(), 3u);
  EXPECT_EQ(manifest.args[1].dtype, DType::BF16);
  EXPECT_EQ(manifest.getTotalArgBytes(), 2u * 24 + 2 * 15 + 4 * 5 + 2 * 40);
  ASSERT_EQ(manifest.program.size(), 6u);
  EXPECT_TRUE(manifest.program[3].transposeB);
  EXPECT_EQ(manifest.program[0].shape, (Shape{2, 4, 3}));
  EXPECT_EQ(manifest.outputs, std::vector<int>{5});
  EXPECT_TRUE(manifest.cost.present);
  EXPECT_EQ(manifest.cost.bound, "latency");
  EXPECT_EQ(manifest.plan, R"({"tile":[64,64]})");
}

TEST(RunnerManifestTest, MissingFields) {
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"kernel\"", "\"k\"")),
            "manifest: missing field \"kernel\"");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"launch\"", "\"l\"")),
            "manifest: missing field \"launch\"");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"outputs\"", "\"o\"")),
            "manifest: missing field \"outputs\"");
  EXPECT_EQ(
      manifestError(replaceFirst(validManifest, "\"role\": \"input\", ", "")),
      "args[0]: missing field \"role\"");
  EXPECT_EQ(
      manifestError(replaceFirst(validManifest, "\"operands\": [0, 1], ", "")),
      "program[3] (matmul): missing field \"operands\"");
}

TEST(RunnerManifestTest, BadDTypeAndRole) {
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"bf16\"", "\"fp8\"")),
            "args[1]: unknown dtype \"fp8\" (expected f16, bf16, f32, "
            "f8e4m3fn or f8e5m2)");
  EXPECT_NE(manifestError(replaceFirst(validManifest, "\"output\"", "\"out\""))
                .find("must be \"input\" or \"output\""),
            std::string::npos);
  EXPECT_NE(manifestError("[1]").find("top level must be an object"),
            std::string::npos);
  EXPECT_NE(manifestError("{").find("malformed JSON: parse error at line 1"),
            std::string::npos);
}

TEST(RunnerManifestTest, ArgAndShapeMismatches) {
  // The output arg's shape differs from the value it receives.
  EXPECT_EQ(
      manifestError(replaceFirst(validManifest, "\"shape\": [2, 4, 5]}]",
                                 "\"shape\": [2, 4, 6]}]")),
      "manifest: output \"out\" has shape [2, 4, 6] but value 5 has shape "
      "[2, 4, 5]");
  // ... or its dtype.
  EXPECT_EQ(manifestError(replaceFirst(
                validManifest, "\"role\": \"output\", \"dtype\": \"f16\"",
                "\"role\": \"output\", \"dtype\": \"f32\"")),
            "manifest: output \"out\" is f32 but value 5 is f16");
  // Contraction dims differ.
  EXPECT_NE(manifestError(replaceFirst(validManifest, "\"shape\": [5, 3]",
                                       "\"shape\": [5, 4]"))
                .find("contraction mismatch"),
            std::string::npos);
  // A declared result shape that broadcasting does not give.
  EXPECT_NE(manifestError(replaceFirst(validManifest, "\"shape\": [5]}",
                                       "\"shape\": [4]}"))
                .find("do not broadcast"),
            std::string::npos);
  // Inputs must come before outputs (the call ABI).
  std::string interleaved = R"({"kernel": "k",
    "launch": {"grid": [1], "block": [1]},
    "args": [{"name": "o", "role": "output", "dtype": "f32", "shape": [2]},
             {"name": "i", "role": "input", "dtype": "f32", "shape": [2]}],
    "program": [{"op": "arg", "index": 1}], "outputs": [0]})";
  EXPECT_EQ(manifestError(interleaved),
            "args[1]: input \"i\" follows an output (inputs come first)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"outputs\": [5]",
                                       "\"outputs\": [5, 4]")),
            "manifest: \"outputs\" lists 2 values but \"args\" has 1 outputs");
}

TEST(RunnerManifestTest, ProgramReferencesOutOfRange) {
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"operands\": [3, 2]",
                                       "\"operands\": [3, 4]")),
            "program[4] (add): operand 4 out of range (must name an earlier "
            "value, < 4)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"operands\": [4]",
                                       "\"operands\": [9]")),
            "program[5] (cast): operand 9 out of range (must name an earlier "
            "value, < 5)");
  EXPECT_EQ(manifestError(
                replaceFirst(validManifest, "\"index\": 2", "\"index\": 7")),
            "program[2] (arg): index 7 out of range (4 args)");
  EXPECT_EQ(manifestError(
                replaceFirst(validManifest, "\"index\": 2", "\"index\": 3")),
            "program[2] (arg): reads output \"out\"");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"outputs\": [5]",
                                       "\"outputs\": [6]")),
            "manifest: outputs[0] = 6 out of range (program has 6 values)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"op\": \"add\"",
                                       "\"op\": \"fma\"")),
            "program[4]: unknown op \"fma\"");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"operands\": [3, 2]",
                                       "\"operands\": [3]")),
            "program[4] (add): expected 2 operands, got 1");
}

// Issue 15: integers a fuzzer writes into a manifest. Each is refused with
// the field's JSON path before it is narrowed (2^31 was an int index of
// -2^31, 2^32 one of 0) or used as a count.
TEST(RunnerManifestTest, IntegersAreRangeChecked) {
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"index\": 2",
                                       "\"index\": 2147483648")),
            "program[2] (arg): \"index\" = 2147483648 out of range (0 to "
            "2147483647)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"index\": 2",
                                       "\"index\": 4294967296")),
            "program[2] (arg): \"index\" = 4294967296 out of range (0 to "
            "2147483647)");
  EXPECT_EQ(manifestError(
                replaceFirst(validManifest, "\"index\": 2", "\"index\": -3")),
            "program[2] (arg): \"index\" = -3 out of range (0 to 2147483647)");
  EXPECT_EQ(manifestError(
                replaceFirst(validManifest, "\"index\": 2", "\"index\": [2]")),
            "program[2] (arg): \"index\" must be an integer, got an array");
  EXPECT_EQ(manifestError(
                replaceFirst(validManifest, "\"index\": 2", "\"index\": true")),
            "program[2] (arg): \"index\" must be an integer, got true");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"shape\": [5, 3]",
                                       "\"shape\": [5, -3]")),
            "args[1]: \"shape\"[1] = -3 out of range (1 to 9007199254740992)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"operands\": [4]",
                                       "\"operands\": [1e17]")),
            "program[5] (cast): \"operands\"[0] = 1e+17 out of range (0 to "
            "9007199254740992)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"outputs\": [5]",
                                       "\"outputs\": [-1]")),
            "manifest: \"outputs\"[0] = -1 out of range (0 to "
            "9007199254740992)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"grid\": [2, 3, 1]",
                                       "\"grid\": [4294967298, 3, 1]")),
            "launch: \"grid\"[0] = 4294967298 out of range (1 to 2147483647)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"smem\": 57344",
                                       "\"smem\": 4294967296")),
            "launch: \"smem\" = 4294967296 out of range (0 to 2147483647)");
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"block\": [128, 1, 1]",
                                       "\"block\": [128, 16, 1]")),
            "launch: \"block\" [128, 16, 1] has 2048 threads (at most 1024)");
}

TEST(RunnerManifestTest, ShapesAreBoundedAndCountsExact) {
  EXPECT_EQ(getCheckedNumElements({1 << 24, 1 << 24}), int64_t(1) << 48);
  EXPECT_EQ(getCheckedNumElements({1 << 24, 1 << 24, 2}), -1);
  EXPECT_EQ(getCheckedNumElements({int64_t(1) << 62, int64_t(1) << 62}), -1);
  EXPECT_EQ(getCheckedNumElements({3, -1}), -1);
  EXPECT_EQ(getCheckedNumElements({}), 1);
  // Every dim in range but their product not: refused, not wrapped.
  EXPECT_EQ(manifestError(replaceFirst(validManifest, "\"shape\": [2, 4, 3]",
                                       "\"shape\": [4294967296, "
                                       "4294967296, 3]")),
            "args[0]: \"shape\" [4294967296, 4294967296, 3] has more than "
            "2^48 elements");
  // A program value may broadcast beyond any arg: bounded too.
  std::string broadcast =
      R"({"kernel": "k", "launch": {"grid": [1], "block": [1]},
    "args": [{"name": "a", "role": "input", "dtype": "f32", "shape": [16777216, 1]},
             {"name": "b", "role": "input", "dtype": "f32", "shape": [1, 33554432]},
             {"name": "o", "role": "output", "dtype": "f32", "shape": [1]}],
    "program": [{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
                {"op": "add", "operands": [0, 1], "dtype": "f32",
                 "shape": [16777216, 33554432]}],
    "outputs": [2]})";
  EXPECT_EQ(manifestError(broadcast),
            "program[2] (add): \"shape\" [16777216, 33554432] has more than "
            "2^48 elements");
}

TEST(RunnerManifestTest, LoadFileResolvesPathsAgainstItsDirectory) {
  Manifest manifest;
  std::string error;
  EXPECT_FALSE(loadManifest("/nonexistent/dir/k.json", manifest, error));
  EXPECT_EQ(error, "cannot open '/nonexistent/dir/k.json'");
}

//===----------------------------------------------------------------------===//
// f16 / bf16
//===----------------------------------------------------------------------===//

TEST(RunnerRandomTest, F16EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double value = f16BitsToDouble(static_cast<uint16_t>(bits));
    if (std::isnan(value))
      EXPECT_TRUE(std::isnan(f16BitsToDouble(doubleToF16Bits(value))));
    else
      ASSERT_EQ(doubleToF16Bits(value), bits) << "f16 bits " << bits;
  }
}

TEST(RunnerRandomTest, BF16EveryPatternRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double value = bf16BitsToDouble(static_cast<uint16_t>(bits));
    if (std::isnan(value))
      EXPECT_TRUE(std::isnan(bf16BitsToDouble(doubleToBF16Bits(value))));
    else
      ASSERT_EQ(doubleToBF16Bits(value), bits) << "bf16 bits " << bits;
  }
}

/// Around every midpoint between two adjacent finite positive patterns (and
/// their negatives): the tie goes to the even pattern, a double just above
/// it to the upper one, just below to the lower one. Pins the encoders'
/// rounding (a fast path on the double's bits for normal results, the
/// general one elsewhere) at every boundary of both formats.
template <typename Encode, typename Decode>
static void checkEveryMidpoint(Encode encode, Decode decode,
                               const char *format) {
  for (uint32_t low = 0; low < 0x7FFF; ++low) {
    double below = decode(low), above = decode(low + 1);
    if (!std::isfinite(below) || !std::isfinite(above))
      continue;
    double mid = below + (above - below) / 2;
    uint32_t even = (low % 2 == 0) ? low : low + 1;
    for (double sign : {1.0, -1.0}) {
      uint32_t signBit = sign < 0 ? 0x8000 : 0;
      ASSERT_EQ(encode(sign * mid), even | signBit) << format << " " << low;
      ASSERT_EQ(encode(sign * std::nextafter(mid, INFINITY)),
                (low + 1) | signBit)
          << format << " above " << low;
      ASSERT_EQ(encode(sign * std::nextafter(mid, 0.0)), low | signBit)
          << format << " below " << low;
    }
  }
}

TEST(RunnerRandomTest, F16AndBF16RoundEveryMidpointToNearestEven) {
  checkEveryMidpoint(doubleToF16Bits, f16BitsToDouble, "f16");
  checkEveryMidpoint(doubleToBF16Bits, bf16BitsToDouble, "bf16");
}

TEST(RunnerRandomTest, F16RoundsToNearestTiesToEven) {
  EXPECT_EQ(doubleToF16Bits(1.0), 0x3C00);
  EXPECT_EQ(f16BitsToDouble(0x3C01), 1 + std::ldexp(1, -10));
  // Halfway between 1 and 1 + 2^-10 goes to the even 1.0; between
  // 1 + 2^-10 and 1 + 2^-9, to the even 1 + 2^-9.
  EXPECT_EQ(doubleToF16Bits(1 + std::ldexp(1, -11)), 0x3C00);
  EXPECT_EQ(doubleToF16Bits(1 + 3 * std::ldexp(1, -11)), 0x3C02);
  // Just above the tie rounds up (double rounding through float would not
  // see the tail).
  EXPECT_EQ(doubleToF16Bits(1 + std::ldexp(1, -11) + std::ldexp(1, -40)),
            0x3C01);
  EXPECT_EQ(doubleToF16Bits(-2.0), 0xC000);
  EXPECT_EQ(doubleToF16Bits(-0.0), 0x8000);
  EXPECT_EQ(doubleToF16Bits(0.1), 0x2E66);
}

TEST(RunnerRandomTest, F16SubnormalsInfinityAndNaN) {
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1, -24)), 0x0001); // smallest
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1, -25)), 0x0000); // tie to even 0
  EXPECT_EQ(doubleToF16Bits(3 * std::ldexp(1, -25)), 0x0002);
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1023, -24)), 0x03FF); // largest
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1, -14)), 0x0400);    // min normal
  // Rounding up out of the subnormals lands on the smallest normal.
  EXPECT_EQ(doubleToF16Bits(std::ldexp(1023.75, -24)), 0x0400);
  EXPECT_EQ(doubleToF16Bits(65504.0), 0x7BFF);
  EXPECT_EQ(doubleToF16Bits(65519.0), 0x7BFF);
  EXPECT_EQ(doubleToF16Bits(65520.0), 0x7C00); // tie goes to even: overflow
  EXPECT_EQ(doubleToF16Bits(1e300), 0x7C00);
  EXPECT_EQ(doubleToF16Bits(-INFINITY), 0xFC00);
  EXPECT_TRUE(std::isnan(f16BitsToDouble(doubleToF16Bits(NAN))));
  EXPECT_TRUE(std::isinf(f16BitsToDouble(0x7C00)));
  EXPECT_TRUE(std::isnan(f16BitsToDouble(0xFFFF))); // the poison value
}

TEST(RunnerRandomTest, BF16Rounding) {
  EXPECT_EQ(doubleToBF16Bits(1.0), 0x3F80);
  EXPECT_EQ(doubleToBF16Bits(1 + std::ldexp(1, -8)), 0x3F80);
  EXPECT_EQ(doubleToBF16Bits(1 + 3 * std::ldexp(1, -8)), 0x3F82);
  EXPECT_EQ(doubleToBF16Bits(std::ldexp(1, -133)), 0x0001);
  EXPECT_EQ(doubleToBF16Bits(3.4e38), 0x7F80); // above bf16's max: inf
  EXPECT_EQ(doubleToBF16Bits(-1e-50), 0x8000);
  EXPECT_EQ(roundToDType(1 + std::ldexp(1, -30), DType::F32), 1.0);
  EXPECT_EQ(roundToDType(0.1, DType::F16), f16BitsToDouble(0x2E66));
}

TEST(RunnerRandomTest, GeneratorIsDeterministic) {
  Random a(7), b(7), c(8);
  for (int i = 0; i < 10; ++i) {
    uint64_t value = a.next();
    EXPECT_EQ(value, b.next());
    EXPECT_NE(value, c.next());
  }
  Random random(1);
  for (int i = 0; i < 1000; ++i) {
    double value = random.uniform(-1, 1);
    EXPECT_GE(value, -1);
    EXPECT_LT(value, 1);
  }
}

//===----------------------------------------------------------------------===//
// Broadcasting and the reference
//===----------------------------------------------------------------------===//

TEST(RunnerReferenceTest, BroadcastIndexMapping) {
  Shape result = {2, 3, 4};
  std::vector<int64_t> index = {1, 2, 3};
  EXPECT_EQ(getBroadcastOffset(result, index, {2, 3, 4}), 23);
  EXPECT_EQ(getBroadcastOffset(result, index, {4}), 3);
  EXPECT_EQ(getBroadcastOffset(result, index, {3, 1}), 2);
  EXPECT_EQ(getBroadcastOffset(result, index, {2, 1, 4}), 7);
  EXPECT_EQ(getBroadcastOffset(result, index, {1, 3, 1}), 2);
  EXPECT_EQ(getBroadcastOffset(result, index, {}), 0);

  Shape broadcast;
  EXPECT_TRUE(broadcastShapes({2, 1, 4}, {3, 1}, broadcast));
  EXPECT_EQ(broadcast, (Shape{2, 3, 4}));
  EXPECT_TRUE(broadcastShapes({}, {5}, broadcast));
  EXPECT_EQ(broadcast, (Shape{5}));
  EXPECT_FALSE(broadcastShapes({2, 3}, {4, 3}, broadcast));
}

/// Builds a manifest from JSON program text over f32 inputs, and evaluates
/// value `valueId` against `inputs` (one vector per input arg).
class ReferenceFixture {
public:
  ReferenceFixture(const std::string &argsJson, const std::string &programJson,
                   int output, const std::vector<std::vector<float>> &inputs)
      : inputs(inputs) {
    std::string text = R"({"kernel": "k", "launch": {"grid": [1], "block": [1]},
      "args": )" + argsJson +
                       R"(, "program": )" + programJson + R"(, "outputs": [)" +
                       std::to_string(output) + "]}";
    std::string error;
    loaded = parseManifest(text, "", manifest, error);
    EXPECT_TRUE(loaded) << error;
  }

  std::vector<double> evaluate(int valueId) {
    if (!loaded)
      return {};
    std::vector<const void *> pointers;
    for (const auto &input : inputs)
      pointers.push_back(input.data());
    ReferenceEvaluator evaluator(manifest, pointers);
    return evaluator.computeAll(valueId);
  }

  Manifest manifest;
  bool loaded = false;
  std::vector<std::vector<float>> inputs;
};

TEST(RunnerReferenceTest, Matmul) {
  // a = [[1, 2, 3], [4, 5, 6]], b = [[1, 0], [0, 1], [1, 1]].
  ReferenceFixture fixture(
      R"([{"name": "a", "role": "input", "dtype": "f32", "shape": [2, 3]},
          {"name": "b", "role": "input", "dtype": "f32", "shape": [3, 2]},
          {"name": "o", "role": "output", "dtype": "f32", "shape": [2, 2]}])",
      R"([{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
          {"op": "matmul", "operands": [0, 1], "dtype": "f32", "shape": [2, 2]}])",
      2, {{1, 2, 3, 4, 5, 6}, {1, 0, 0, 1, 1, 1}});
  EXPECT_EQ(fixture.evaluate(2), (std::vector<double>{4, 5, 10, 11}));
}

TEST(RunnerReferenceTest, MatmulTransposeB) {
  // b is [N=3, K=2]: o[m][n] = sum_k a[m][k] * b[n][k].
  ReferenceFixture fixture(
      R"([{"name": "a", "role": "input", "dtype": "f32", "shape": [1, 2]},
          {"name": "b", "role": "input", "dtype": "f32", "shape": [3, 2]},
          {"name": "o", "role": "output", "dtype": "f32", "shape": [1, 3]}])",
      R"([{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
          {"op": "matmul", "operands": [0, 1], "transpose_b": true,
           "dtype": "f32", "shape": [1, 3]}])",
      2, {{2, 3}, {1, 0, 0, 1, 1, 1}});
  EXPECT_EQ(fixture.evaluate(2), (std::vector<double>{2, 3, 5}));
}

TEST(RunnerReferenceTest, MatmulBatchBroadcastAndBatchedB) {
  // a [2, 1, 2]; shared b [2, 2] = identity*2 broadcast over the batch.
  ReferenceFixture shared(
      R"([{"name": "a", "role": "input", "dtype": "f32", "shape": [2, 1, 2]},
          {"name": "b", "role": "input", "dtype": "f32", "shape": [2, 2]},
          {"name": "o", "role": "output", "dtype": "f32", "shape": [2, 1, 2]}])",
      R"([{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
          {"op": "matmul", "operands": [0, 1], "dtype": "f32",
           "shape": [2, 1, 2]}])",
      2, {{1, 2, 3, 4}, {2, 0, 0, 2}});
  EXPECT_EQ(shared.evaluate(2), (std::vector<double>{2, 4, 6, 8}));
  // Batched b [2, 2, 2]: batch 0 identity, batch 1 swaps columns.
  ReferenceFixture batched(
      R"([{"name": "a", "role": "input", "dtype": "f32", "shape": [2, 1, 2]},
          {"name": "b", "role": "input", "dtype": "f32", "shape": [2, 2, 2]},
          {"name": "o", "role": "output", "dtype": "f32", "shape": [2, 1, 2]}])",
      R"([{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
          {"op": "matmul", "operands": [0, 1], "dtype": "f32",
           "shape": [2, 1, 2]}])",
      2, {{1, 2, 3, 4}, {1, 0, 0, 1, 0, 1, 1, 0}});
  EXPECT_EQ(batched.evaluate(2), (std::vector<double>{1, 2, 4, 3}));
}

TEST(RunnerReferenceTest, GeluBothForms) {
  std::string args =
      R"([{"name": "x", "role": "input", "dtype": "f32", "shape": [3]},
          {"name": "o", "role": "output", "dtype": "f32", "shape": [3]}])";
  ReferenceFixture erf(args, R"([{"op": "arg", "index": 0},
      {"op": "gelu", "operands": [0], "approximate": "erf", "dtype": "f32",
       "shape": [3]}])",
                       1, {{1, -1, 0.5f}});
  std::vector<double> exact = erf.evaluate(1);
  ASSERT_EQ(exact.size(), 3u);
  EXPECT_NEAR(exact[0], 0.8413447460685429, 1e-15);
  EXPECT_NEAR(exact[1], -0.15865525393145707, 1e-15);
  EXPECT_NEAR(exact[2], 0.34573123063700656, 1e-15);
  ReferenceFixture tanh(args, R"([{"op": "arg", "index": 0},
      {"op": "gelu", "operands": [0], "approximate": "tanh", "dtype": "f32",
       "shape": [3]}])",
                        1, {{1, -1, 0.5f}});
  std::vector<double> approximate = tanh.evaluate(1);
  ASSERT_EQ(approximate.size(), 3u);
  EXPECT_NEAR(approximate[0], 0.8411919906082768, 1e-15);
  EXPECT_NEAR(approximate[1], -0.15880800939172324, 1e-15);
  EXPECT_NEAR(approximate[2], 0.34571400982514394, 1e-15);
}

TEST(RunnerReferenceTest, CastRoundsDivAndBroadcastAdd) {
  // o = cast<f16>(x / d + bias) with bias [2] broadcast over rows and a
  // scalar constant: exercises div, broadcasting and the final rounding.
  ReferenceFixture fixture(
      R"([{"name": "x", "role": "input", "dtype": "f32", "shape": [2, 2]},
          {"name": "d", "role": "input", "dtype": "f32", "shape": [2, 2]},
          {"name": "bias", "role": "input", "dtype": "f32", "shape": [2]},
          {"name": "o", "role": "output", "dtype": "f16", "shape": [2, 2]}])",
      R"([{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
          {"op": "arg", "index": 2},
          {"op": "div", "operands": [0, 1], "dtype": "f32", "shape": [2, 2]},
          {"op": "add", "operands": [3, 2], "dtype": "f32", "shape": [2, 2]},
          {"op": "constant", "value": 0.5, "dtype": "f32"},
          {"op": "mul", "operands": [4, 5], "dtype": "f32", "shape": [2, 2]},
          {"op": "cast", "operands": [6], "dtype": "f16", "shape": [2, 2]}])",
      7, {{1, 2, 3, 4}, {3, 1, 1, 2}, {0, 1}});
  std::vector<double> unrounded = fixture.evaluate(6);
  EXPECT_EQ(unrounded, (std::vector<double>{1.0 / 6, 1.5, 1.5, 1.5}));
  std::vector<double> rounded = fixture.evaluate(7);
  ASSERT_EQ(rounded.size(), 4u);
  EXPECT_EQ(rounded[0], f16BitsToDouble(0x3155)); // 1/6 in f16
  EXPECT_NE(rounded[0], 1.0 / 6);
  EXPECT_EQ(rounded[1], 1.5);
  EXPECT_EQ(findDivisorArgs(fixture.manifest),
            (std::vector<bool>{false, true, false, false}));
}

TEST(RunnerReferenceTest, UnaryOps) {
  std::string args =
      R"([{"name": "x", "role": "input", "dtype": "f32", "shape": [2]},
          {"name": "o", "role": "output", "dtype": "f32", "shape": [2]}])";
  auto run = [&](const char *op) {
    ReferenceFixture fixture(args, std::string(R"([{"op": "arg", "index": 0},
        {"op": ")") + op + R"(", "operands": [0], "dtype": "f32",
         "shape": [2]}])",
                             1, {{-2, 0.5f}});
    return fixture.evaluate(1);
  };
  EXPECT_EQ(run("relu"), (std::vector<double>{0, 0.5}));
  EXPECT_EQ(run("neg"), (std::vector<double>{2, -0.5}));
  EXPECT_EQ(run("abs"), (std::vector<double>{2, 0.5}));
  EXPECT_NEAR(run("sigmoid")[0], 1 / (1 + std::exp(2.0)), 1e-16);
  EXPECT_NEAR(run("silu")[1], 0.5 / (1 + std::exp(-0.5)), 1e-16);
  EXPECT_NEAR(run("tanh")[1], std::tanh(0.5), 1e-16);
  EXPECT_NEAR(run("exp")[0], std::exp(-2.0), 1e-16);
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

TEST(RunnerCompareTest, DefaultTolerances) {
  EXPECT_EQ(getDefaultTolerance(DType::F16).atol, 1e-2);
  EXPECT_EQ(getDefaultTolerance(DType::BF16).rtol, 1e-2);
  EXPECT_EQ(getDefaultTolerance(DType::F32).atol, 1e-4);
}

TEST(RunnerCompareTest, ExactMatchPasses) {
  std::vector<double> ref = {1, -2, 3, 0.5};
  CompareStats stats = compare(ref, ref, Tolerance());
  EXPECT_TRUE(stats.pass);
  EXPECT_EQ(stats.share, 1);
  EXPECT_EQ(stats.maxAbsError, 0);
  EXPECT_NEAR(stats.cosine, 1, 1e-15);
  EXPECT_EQ(stats.relL2Error, 0);
}

TEST(RunnerCompareTest, OneNaNFails) {
  std::vector<double> ref(1000, 1.0), out = ref;
  out[10] = NAN;
  CompareStats stats = compare(out, ref, Tolerance());
  EXPECT_FALSE(stats.pass);
  EXPECT_EQ(stats.nonFinite, 1);
  EXPECT_GE(stats.share, 0.99); // fails on the NaN alone
  out[10] = INFINITY;
  EXPECT_FALSE(compare(out, ref, Tolerance()).pass);
}

TEST(RunnerCompareTest, OnePercentBadIsTheBoundary) {
  std::vector<double> ref(100, 1.0), out = ref;
  out[0] = 2; // 1 of 100 out of tolerance: share 0.99 passes
  CompareStats stats = compare(out, ref, Tolerance());
  EXPECT_TRUE(stats.pass);
  EXPECT_EQ(stats.withinTolerance, 99);
  EXPECT_EQ(stats.maxAbsError, 1);
  EXPECT_EQ(stats.maxRelError, 1);
  out[1] = 2; // 2 of 100: fails
  EXPECT_FALSE(compare(out, ref, Tolerance()).pass);
  std::vector<double> ref99(99, 1.0), out99 = ref99;
  out99[0] = 2; // 1 of 99 is just over 1%: fails
  EXPECT_FALSE(compare(out99, ref99, Tolerance()).pass);
  EXPECT_TRUE(meetsShare(990, 1000));
  EXPECT_FALSE(meetsShare(989, 1000));
}

TEST(RunnerCompareTest, ToleranceIsAbsolutePlusRelative) {
  Tolerance tolerance;
  tolerance.atol = 0.1;
  tolerance.rtol = 0.1;
  // |out - ref| <= 0.1 + 0.1 * |ref|: 10 vs 12 (2 > 1.1) fails, 10 vs 11
  // passes.
  EXPECT_EQ(compare({11}, {10}, tolerance).withinTolerance, 1);
  EXPECT_EQ(compare({12}, {10}, tolerance).withinTolerance, 0);
  // Relative error is taken against max(|ref|, atol) so zeros do not divide.
  EXPECT_EQ(compare({0.05}, {0}, tolerance).maxRelError, 0.5);
}

TEST(RunnerCompareTest, CosineAndRelativeL2) {
  CompareStats orthogonal = compare({1, 0}, {0, 1}, Tolerance());
  EXPECT_NEAR(orthogonal.cosine, 0, 1e-15);
  EXPECT_FALSE(orthogonal.pass);
  CompareStats scaled = compare({2, 4}, {1, 2}, Tolerance());
  EXPECT_NEAR(scaled.cosine, 1, 1e-15); // direction right, magnitude wrong
  EXPECT_NEAR(scaled.relL2Error, 1, 1e-15);
  EXPECT_FALSE(scaled.pass);
  CompareStats opposite = compare({-1, -2}, {1, 2}, Tolerance());
  EXPECT_NEAR(opposite.cosine, -1, 1e-15);
}

TEST(RunnerCompareTest, NonFiniteReferenceMatchesSameSpecialValue) {
  // A reference that overflows to inf (cast to f16 of a huge value) passes
  // when the kernel overflows the same way and is not counted as a NaN.
  CompareStats stats = compare({INFINITY, 1}, {INFINITY, 1}, Tolerance());
  EXPECT_TRUE(stats.pass);
  EXPECT_EQ(stats.nonFinite, 0);
  EXPECT_EQ(compare({1, 1}, {INFINITY, 1}, Tolerance()).withinTolerance, 1);
}

//===----------------------------------------------------------------------===//
// Timing helpers, sampling, inputs
//===----------------------------------------------------------------------===//

TEST(RunnerTimingTest, Median) {
  EXPECT_EQ(getMedian({}), 0);
  EXPECT_EQ(getMedian({3}), 3);
  EXPECT_EQ(getMedian({5, 1, 3}), 3);
  EXPECT_EQ(getMedian({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(getMedian({100, 1, 2, 3, 1000}), 3); // robust to outliers
}

TEST(RunnerTimingTest, InputSetCountSpansTwiceTheL2) {
  const double l2 = 62914560; // H200's 60 MiB
  // The seed example's args (~139 MB) already exceed 2x L2: one set.
  EXPECT_EQ(getInputSetCount(l2, 138936320, 32, 0), 1);
  // 10 MiB per set: ceil(120 / 10) = 12 sets.
  EXPECT_EQ(getInputSetCount(l2, 10 << 20, 32, 0), 12);
  // Tiny kernels are capped.
  EXPECT_EQ(getInputSetCount(l2, 4096, 32, 0), 32);
  // ... and limited by 80% of free memory.
  EXPECT_EQ(getInputSetCount(l2, 10 << 20, 32, 50 << 20), 4);
  EXPECT_EQ(getInputSetCount(l2, 10 << 20, 32, 1 << 20), 1);
  // Unknown L2 still gives one set.
  EXPECT_EQ(getInputSetCount(0, 4096, 32, 0), 1);
}

TEST(RunnerSamplingTest, RowsIncludeFirstAndLastAndAreDeterministic) {
  std::vector<int64_t> rows = sampleRows(8192, 40, 1);
  ASSERT_EQ(rows.size(), 40u);
  EXPECT_EQ(rows.front(), 0);
  EXPECT_EQ(rows.back(), 8191);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end());
  EXPECT_EQ(sampleRows(8192, 40, 1), rows);
  EXPECT_NE(sampleRows(8192, 40, 2), rows);
  EXPECT_EQ(sampleRows(5, 10, 1), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(sampleRows(3, 2, 9), (std::vector<int64_t>{0, 2}));
}

TEST(RunnerSamplingTest, BudgetDecidesHowManyRows) {
  // 8192 rows x 2560 columns x (1 + K=2560) work per element ~ 5.4e10.
  EXPECT_EQ(getRowsWithinBudget(8192, 2560, 2561, 3e8), 45);
  EXPECT_EQ(getRowsWithinBudget(10, 10, 1, 3e8), 10);
  EXPECT_EQ(getRowsWithinBudget(8192, 2560, 2561, 1), 2); // first and last
}

TEST(RunnerSamplingTest, ReferenceWorkCountsMatmulDepth) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest(validManifest, "", manifest, error)) << error;
  EXPECT_EQ(getReferenceWorkPerElement(manifest, 5), 1 + 3);
  EXPECT_EQ(getReferenceWorkPerElement(manifest, 2), 1);
}

TEST(RunnerInputsTest, SeededNonZeroAndPoisoned) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest(validManifest, "", manifest, error)) << error;
  auto buffers = makeArgBuffers(manifest, 1);
  ASSERT_EQ(buffers.size(), 4u);
  EXPECT_EQ(buffers, makeArgBuffers(manifest, 1));
  EXPECT_NE(buffers[0], makeArgBuffers(manifest, 2)[0]);
  EXPECT_NE(buffers[0], makeArgBuffers(manifest, 1, /*setIndex=*/1)[0]);
  for (size_t i = 0; i < 3; ++i) {
    const ArgSpec &arg = manifest.args[i];
    for (int64_t e = 0; e < arg.getNumElements(); ++e) {
      double value = loadElement(buffers[i].data(), arg.dtype, e);
      EXPECT_NE(value, 0);
      EXPECT_LE(std::fabs(value), 1);
      EXPECT_EQ(value, roundToDType(value, arg.dtype));
    }
  }
  for (int64_t e = 0; e < manifest.args[3].getNumElements(); ++e)
    EXPECT_TRUE(std::isnan(loadElement(buffers[3].data(), DType::F16, e)));
}

TEST(RunnerInputsTest, DivisorsStayAwayFromZero) {
  ReferenceFixture fixture(
      R"([{"name": "x", "role": "input", "dtype": "bf16", "shape": [64]},
          {"name": "d", "role": "input", "dtype": "bf16", "shape": [64]},
          {"name": "o", "role": "output", "dtype": "bf16", "shape": [64]}])",
      R"([{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
          {"op": "div", "operands": [0, 1], "dtype": "bf16", "shape": [64]}])",
      2, {});
  auto buffers = makeArgBuffers(fixture.manifest, 3);
  bool sawNegative = false;
  for (int e = 0; e < 64; ++e) {
    double value = loadElement(buffers[1].data(), DType::BF16, e);
    EXPECT_GE(std::fabs(value), 0.5);
    EXPECT_LE(std::fabs(value), 1.5);
    sawNegative |= value < 0;
  }
  EXPECT_TRUE(sawNegative);
}

TEST(RunnerInputsTest, PtxParamCount) {
  const char *ptx = ".visible .entry k_long(.param .u64 a)\n{}\n"
                    ".visible .entry k(\n  .param .u64 k_param_0,\n"
                    "  .param .u64 k_param_1,\n  .param .u64 k_param_2\n)\n{}";
  EXPECT_EQ(countPtxEntryParams(ptx, "k"), 3);
  EXPECT_EQ(countPtxEntryParams(ptx, "k_long"), 1);
  EXPECT_EQ(countPtxEntryParams(ptx, "missing"), -1);
  // A by-value tensor map (runtime/Launch.h) is one parameter.
  const char *tma = ".visible .entry t(\n  .param .u64 t_param_0,\n"
                    "  .param .align 64 .b8 t_param_1[128],\n"
                    "  .param .align 64 .b8 t_param_2[128]\n)\n{}";
  EXPECT_EQ(countPtxEntryParams(tma, "t"), 3);
}

//===----------------------------------------------------------------------===//
// Backends
//===----------------------------------------------------------------------===//

TEST(RunnerCudaTest, MissingDriverIsACleanError) {
  cuda::CudaDriver driver;
  std::string error;
  EXPECT_FALSE(driver.load(error, "libsol-test-no-such-driver.so.1"));
  EXPECT_EQ(error.find("libsol-test-no-such-driver.so.1 not found: this "
                       "machine has no NVIDIA driver"),
            0u)
      << error;
  EXPECT_FALSE(driver.isLoaded());

  Manifest manifest;
  ASSERT_TRUE(parseManifest(validManifest, "", manifest, error)) << error;
  RunOptions options;
  options.cudaLibrary = "libsol-test-no-such-driver.so.1";
  Runner runner(options);
  RunResult result = runner.run(manifest);
  EXPECT_FALSE(result.pass);
  EXPECT_NE(result.error.find("this machine has no NVIDIA driver"),
            std::string::npos);
  // A second kernel reports the same without retrying.
  EXPECT_EQ(runner.run(manifest).error, result.error);
  EXPECT_NE(formatTableRow(result).find("ERR"), std::string::npos);
}

TEST(RunnerCudaTest, RealDriverAbsentOrUsable) {
  // On this CI machine there is no driver; on a GPU machine loading works.
  cuda::CudaDriver driver;
  std::string error;
  if (!driver.load(error)) {
    EXPECT_NE(error.find("libcuda.so.1 not found"), std::string::npos);
  }
}

std::string writeTempFile(const std::string &name,
                          const std::string &contents) {
  return sol::test::writeTempFile("sol-runner-test-", name, contents);
}

/// Runs the 3x5 f32 add manifest through the CUDA backend on the fake driver
/// (FakeCudaDriver.c), with `ptxText` as the module.
RunResult runFakeCuda(const std::string &kernel, const std::string &ptxText,
                      bool checkOnly = false) {
  std::string ptx = writeTempFile(kernel + ".ptx", ptxText);
  std::string text =
      addF32Manifest(R"("kernel": ")" + kernel + R"(", "ptx": ")" + ptx + R"(",
    "target": {"chip": "sm_90a", "l2_bytes": 1048576},
    "launch": {"grid": [1, 1, 1], "block": [32, 1, 1], "smem": 65536},
    "cost": {"tc_flops": 0, "ew_flops": 15, "bytes": 180, "t_ideal_us": 0.5,
             "t_pred_us": 2, "sol_pred": 0.25, "bound": "latency"},)");
  return runOnFakeDriver(text, checkOnly);
}

TEST(RunnerCudaTest, AbsentCubinFallsBackToThePtx) {
  // `--sol-to-ptx` with cubin=false names a cubin it did not write: the
  // runner loads the PTX rather than fail on the missing file.
  std::string ptx = writeTempFile("absent_cubin.ptx", "// fake module\n");
  std::string text = addF32Manifest(
      R"("kernel": "add_f32", "ptx": ")" + ptx + R"(",
    "cubin": ")" + ptx + R"(.absent.cubin",
    "target": {"chip": "sm_90a", "l2_bytes": 1048576},
    "launch": {"grid": [1, 1, 1], "block": [32, 1, 1], "smem": 65536},)");
  RunResult result = runOnFakeDriver(text, /*checkOnly=*/true);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(result.pass);
  EXPECT_EQ(result.binaryPath, ptx);
}

TEST(RunnerCudaTest, FakeDriverChecksAndTimes) {
  RunResult result = runFakeCuda("add_f32", "// fake module\n");
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(result.pass);
  EXPECT_EQ(result.deviceName, "Fake GPU");
  ASSERT_TRUE(result.timed);
  // 0.5 ms per rep over 10 launches.
  EXPECT_DOUBLE_EQ(result.us, 50);
  EXPECT_DOUBLE_EQ(result.solMeasured, 0.5 / 50);
  EXPECT_DOUBLE_EQ(result.gbps, 180 / (50 * 1e3));
  // 180 B per set against a 1 MiB L2: capped at 32 sets.
  EXPECT_EQ(result.inputSets, 32);
  EXPECT_EQ(result.iters, 10);
  EXPECT_EQ(result.reps, 3);
  nlohmann::ordered_json row = toJson(result);
  EXPECT_EQ(row["us"].get<double>(), 50);
  EXPECT_EQ(row["device"].get<std::string>(), "Fake GPU");
}

TEST(RunnerCudaTest, FakeDriverWrongKernelFailsAndCheckOnlyDoesNotTime) {
  RunResult result =
      runFakeCuda("add_f32_wrong", "// fake module\n", /*checkOnly=*/true);
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_FALSE(result.pass);
  EXPECT_FALSE(result.timed);
  EXPECT_LT(result.share, 0.99);
}

TEST(RunnerCudaTest, FakeDriverErrorsAreClear) {
  RunResult badModule = runFakeCuda("add_f32", "FAIL this is not PTX");
  EXPECT_NE(badModule.error.find("cannot load module"), std::string::npos)
      << badModule.error;
  EXPECT_NE(badModule.error.find("CUDA_ERROR_INVALID_PTX"), std::string::npos);
  EXPECT_NE(badModule.error.find("ptxas fatal: fake syntax error"),
            std::string::npos);

  RunResult noEntry = runFakeCuda("absent_kernel", "// fake module\n");
  EXPECT_NE(noEntry.error.find("kernel entry 'absent_kernel' not found"),
            std::string::npos)
      << noEntry.error;
  EXPECT_NE(noEntry.error.find("CUDA_ERROR_NOT_FOUND"), std::string::npos);

  RunResult argCount = runFakeCuda(
      "add_f32", ".visible .entry add_f32(.param .u64 a, .param .u64 b)\n{}");
  EXPECT_NE(argCount.error.find("argument count mismatch: PTX entry "
                                "'add_f32' takes 2 parameters, manifest has 3"),
            std::string::npos)
      << argCount.error;

  RunResult launch = runFakeCuda("add_f32_launch_fails", "// fake module\n");
  EXPECT_NE(launch.error.find("kernel launch failed: CUDA_ERROR_LAUNCH_FAILED"),
            std::string::npos)
      << launch.error;
  EXPECT_FALSE(launch.pass);
}

RunResult runHostKernel(const std::string &kernel,
                        const std::string &library = SOL_HOST_KERNEL_FIXTURE,
                        double referenceBudget = 3e8) {
  Manifest manifest;
  std::string error;
  EXPECT_TRUE(parseManifest(
      addF32Manifest(
          R"("kernel": ")" + kernel +
          R"(", "launch": {"grid": [1, 1, 1], "block": [1, 1, 1]},)"),
      "", manifest, error))
      << error;
  RunOptions options;
  options.backend = Backend::Host;
  options.libraryOverride = library;
  options.referenceBudget = referenceBudget;
  return Runner(options).run(manifest);
}

TEST(RunnerHostTest, CorrectKernelPasses) {
  RunResult result = runHostKernel("add_f32");
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_TRUE(result.pass);
  ASSERT_EQ(result.outputs.size(), 1u);
  EXPECT_EQ(result.outputs[0].stats.count, 15);
  EXPECT_FALSE(result.outputs[0].isSampled());
  EXPECT_EQ(result.share, 1);
  EXPECT_FALSE(result.timed);
  EXPECT_GE(result.hostWallUs, 0);
  nlohmann::ordered_json row = toJson(result);
  EXPECT_TRUE(row["pass"].get<bool>());
  EXPECT_TRUE(row["us"].is_null()); // no GPU time from the host backend
}

TEST(RunnerHostTest, UnwrittenRowFailsOnPoison) {
  RunResult result = runHostKernel("add_f32_skips_last_row");
  EXPECT_TRUE(result.error.empty()) << result.error;
  EXPECT_FALSE(result.pass);
  ASSERT_EQ(result.outputs.size(), 1u);
  EXPECT_EQ(result.outputs[0].stats.nonFinite, 5);
}

TEST(RunnerHostTest, WrongValuesFail) {
  RunResult result = runHostKernel("add_f32_subtracts");
  EXPECT_FALSE(result.pass);
  EXPECT_LT(result.share, 0.99);
  EXPECT_EQ(result.outputs[0].stats.nonFinite, 0);
}

TEST(RunnerHostTest, SampledCheckSaysSo) {
  // A budget below one row's work checks only the first and last rows.
  RunResult result =
      runHostKernel("add_f32_skips_last_row", SOL_HOST_KERNEL_FIXTURE, 1);
  ASSERT_EQ(result.outputs.size(), 1u);
  EXPECT_TRUE(result.outputs[0].isSampled());
  EXPECT_EQ(result.outputs[0].rowsChecked, 2);
  EXPECT_FALSE(result.pass); // the last row is always among them
}

TEST(RunnerHostTest, MissingEntryAndLibrary) {
  RunResult noEntry = runHostKernel("no_such_kernel");
  EXPECT_FALSE(noEntry.pass);
  EXPECT_NE(noEntry.error.find("has no entry 'no_such_kernel'"),
            std::string::npos);
  RunResult noLibrary = runHostKernel("add_f32", "/nonexistent/libk.so");
  EXPECT_FALSE(noLibrary.pass);
  EXPECT_NE(noLibrary.error.find("cannot load host kernel library"),
            std::string::npos);
}

// Issue 15: a shape the manifest allows but memory does not is an error
// before anything is allocated, on either backend.
TEST(RunnerHostTest, HostByteCapRefusesHugeArguments) {
  Manifest manifest;
  std::string error;
  ASSERT_TRUE(parseManifest(addF32Manifest(R"("kernel": "add_f32",
      "launch": {"grid": [1], "block": [1]},)",
                                           "[4294967360, 64]"),
                            "", manifest, error))
      << error;
  EXPECT_EQ(getHostArgBytes(manifest, Backend::Host),
            uint64_t(3) * 4 * 64 * 4294967360);
  EXPECT_EQ(getHostArgBytes(manifest, Backend::Cuda),
            uint64_t(6) * 4 * 64 * 4294967360);
  for (Backend backend : {Backend::Host, Backend::Cuda}) {
    RunOptions options;
    options.backend = backend;
    options.libraryOverride = SOL_HOST_KERNEL_FIXTURE;
    options.cudaLibrary = "libsol-test-no-such-driver.so.1";
    RunResult result = Runner(options).run(manifest);
    EXPECT_FALSE(result.pass);
    EXPECT_NE(result.error.find("B of host memory, more than the cap of"),
              std::string::npos)
        << result.error;
  }
  // The same kernel at its real size passes under a cap it fits.
  ASSERT_TRUE(parseManifest(addF32Manifest(R"("kernel": "add_f32",
      "launch": {"grid": [1], "block": [1]},)"),
                            "", manifest, error));
  RunOptions options;
  options.backend = Backend::Host;
  options.libraryOverride = SOL_HOST_KERNEL_FIXTURE;
  options.maxHostBytes = 180;
  EXPECT_TRUE(Runner(options).run(manifest).pass);
  options.maxHostBytes = 179;
  EXPECT_EQ(Runner(options).run(manifest).error,
            "the arguments need 180 B of host memory, more than the cap of "
            "179 B (--max-host-bytes)");
  EXPECT_GT(getDefaultHostByteCap(), 0u);
}

TEST(RunnerHostTest, TooManyArgumentsIsAnError) {
  HostKernel kernel;
  std::string error;
  ASSERT_TRUE(kernel.load(SOL_HOST_KERNEL_FIXTURE, "add_f32", error)) << error;
  std::vector<void *> args(maxHostKernelArgs + 1, nullptr);
  EXPECT_FALSE(kernel.call(args, error));
  EXPECT_NE(error.find("at most 32"), std::string::npos);
}

} // namespace
