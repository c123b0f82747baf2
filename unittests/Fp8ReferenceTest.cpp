//===- Fp8ReferenceTest.cpp - runtime/Fp8.h against LLVM's APFloat --------===//
//
// The fp8 reference (runtime/Fp8.h) is written from the format's bit layout;
// LLVM's APFloat implements Float8E4M3FN and Float8E5M2 on its own, so it
// is the independent reference here: every code's value, every midpoint
// between neighbours (the ties), and fresh random values over the whole
// range, beyond it and below the subnormals. The scaled matmul is checked
// against a dequantise-first evaluation (scales applied to the operands,
// then the dot product in long double) on fresh random codes at odd shapes.
//
//===----------------------------------------------------------------------===//

#include "runtime/Fp8.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

using namespace sol::runtime;

namespace {

const llvm::fltSemantics &semanticsOf(Fp8Kind kind) {
  return kind == Fp8Kind::E4M3FN ? llvm::APFloat::Float8E4M3FN()
                                 : llvm::APFloat::Float8E5M2();
}

const char *nameOf(Fp8Kind kind) {
  return kind == Fp8Kind::E4M3FN ? "e4m3fn" : "e5m2";
}

/// APFloat's value of `code`.
double apfloatDecode(uint8_t code, Fp8Kind kind) {
  return llvm::APFloat(semanticsOf(kind), llvm::APInt(8, code))
      .convertToDouble();
}

/// APFloat's round-to-nearest-even conversion, with sol.cast's saturation
/// on top: an overflow (an infinity for e5m2, a NaN for e4m3fn, which has
/// no infinity) becomes the largest finite value of the sign.
uint8_t apfloatEncode(double x, Fp8Kind kind) {
  llvm::APFloat value(x);
  bool losesInfo = false;
  value.convert(semanticsOf(kind), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  if (std::isnan(x))
    return 0x7F;
  if (value.isInfinity() || value.isNaN())
    value = llvm::APFloat::getLargest(semanticsOf(kind), std::signbit(x));
  return static_cast<uint8_t>(value.bitcastToAPInt().getZExtValue());
}

/// A fresh seed per run, printed so that a failure can be replayed.
uint64_t freshSeed(const char *test) {
  uint64_t seed = std::random_device{}();
  std::printf("%s: seed %llu\n", test, static_cast<unsigned long long>(seed));
  return seed;
}

class Fp8Test : public ::testing::TestWithParam<Fp8Kind> {};

TEST_P(Fp8Test, EveryCodeDecodesAsAPFloatDoes) {
  Fp8Kind kind = GetParam();
  for (int code = 0; code < 256; ++code) {
    double ours = decodeFp8(static_cast<uint8_t>(code), kind);
    double theirs = apfloatDecode(static_cast<uint8_t>(code), kind);
    if (std::isnan(theirs)) {
      EXPECT_TRUE(std::isnan(ours)) << nameOf(kind) << " code " << code;
      continue;
    }
    EXPECT_EQ(ours, theirs) << nameOf(kind) << " code " << code;
    EXPECT_EQ(std::signbit(ours), std::signbit(theirs))
        << nameOf(kind) << " code " << code;
  }
}

TEST_P(Fp8Test, LargestFiniteValues) {
  Fp8Kind kind = GetParam();
  EXPECT_EQ(getFp8MaxFinite(kind), kind == Fp8Kind::E4M3FN ? 448.0 : 57344.0);
  EXPECT_EQ(getFp8MaxFinite(kind),
            llvm::APFloat::getLargest(semanticsOf(kind)).convertToDouble());
}

/// The midpoints between neighbouring finite values are the ties: each goes
/// to the even code, as APFloat's rmNearestTiesToEven does; the points
/// just off them go to the nearer neighbour.
TEST_P(Fp8Test, TiesGoToTheEvenCode) {
  Fp8Kind kind = GetParam();
  double max = getFp8MaxFinite(kind);
  for (int code = 0; code < 0x7F; ++code) {
    double low = apfloatDecode(static_cast<uint8_t>(code), kind);
    double high = apfloatDecode(static_cast<uint8_t>(code + 1), kind);
    if (std::isnan(high) || std::isinf(high) || low >= max)
      break;
    double mid = (low + high) / 2;
    for (double x : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, max),
                     -mid, low, -high})
      EXPECT_EQ(encodeFp8(x, kind), apfloatEncode(x, kind))
          << nameOf(kind) << " x = " << x;
  }
}

TEST_P(Fp8Test, SaturatesAndKeepsNaN) {
  Fp8Kind kind = GetParam();
  double max = getFp8MaxFinite(kind);
  double inf = std::numeric_limits<double>::infinity();
  for (double x : {max, max * 1.03, max * 1.1, max * 4, 1e30, inf}) {
    EXPECT_EQ(decodeFp8(encodeFp8(x, kind), kind), max) << x;
    EXPECT_EQ(decodeFp8(encodeFp8(-x, kind), kind), -max) << -x;
    EXPECT_EQ(encodeFp8(x, kind), apfloatEncode(x, kind)) << x;
  }
  EXPECT_TRUE(std::isnan(decodeFp8(
      encodeFp8(std::numeric_limits<double>::quiet_NaN(), kind), kind)));
  // The sign of zero, and of what underflows to it, is kept.
  EXPECT_EQ(encodeFp8(-0.0, kind), 0x80);
  EXPECT_EQ(encodeFp8(-1e-30, kind), 0x80);
  EXPECT_EQ(encodeFp8(1e-30, kind), 0x00);
}

TEST_P(Fp8Test, FreshRandomValuesEncodeAsAPFloatDoes) {
  Fp8Kind kind = GetParam();
  std::mt19937_64 random(freshSeed(nameOf(kind)));
  // Magnitudes from far below the smallest subnormal to far past the
  // largest value, log-uniform, both signs.
  std::uniform_real_distribution<double> log2Magnitude(-30, 20);
  for (int i = 0; i < 200000; ++i) {
    double x = std::exp2(log2Magnitude(random));
    if (random() & 1)
      x = -x;
    ASSERT_EQ(encodeFp8(x, kind), apfloatEncode(x, kind))
        << nameOf(kind) << " x = " << x;
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, Fp8Test,
                         ::testing::Values(Fp8Kind::E4M3FN, Fp8Kind::E5M2));

/// The dequantise-first evaluation: each operand element times its scale,
/// then the dot product, in long double.
std::vector<double> dequantiseFirst(const std::vector<uint8_t> &a,
                                    Fp8Kind aKind,
                                    const std::vector<uint8_t> &b,
                                    Fp8Kind bKind, int64_t m, int64_t n,
                                    int64_t k, const std::vector<double> &sa,
                                    const std::vector<double> &sb) {
  std::vector<double> out(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      long double acc = 0;
      for (int64_t l = 0; l < k; ++l) {
        long double x =
            static_cast<long double>(apfloatDecode(a[i * k + l], aKind)) *
            sa[sa.size() == 1 ? 0 : i];
        long double y =
            static_cast<long double>(apfloatDecode(b[j * k + l], bKind)) *
            sb[sb.size() == 1 ? 0 : j];
        acc += x * y;
      }
      out[i * n + j] = static_cast<double>(acc);
    }
  return out;
}

/// Random finite codes of `kind` (no NaN, no infinity).
std::vector<uint8_t> randomCodes(std::mt19937_64 &random, int64_t count,
                                 Fp8Kind kind) {
  std::vector<uint8_t> codes;
  while (static_cast<int64_t>(codes.size()) < count) {
    auto code = static_cast<uint8_t>(random());
    if (std::isfinite(decodeFp8(code, kind)))
      codes.push_back(code);
  }
  return codes;
}

std::vector<double> randomScales(std::mt19937_64 &random, int64_t count) {
  std::uniform_real_distribution<double> log2Scale(-12, 4);
  std::vector<double> scales;
  for (int64_t i = 0; i < count; ++i)
    scales.push_back(std::exp2(log2Scale(random)));
  return scales;
}

TEST(Fp8ScaledMatmulTest, MatchesDequantiseFirstOnOddShapes) {
  std::mt19937_64 random(freshSeed("scaled matmul"));
  struct Case {
    int64_t m, n, k;
    Fp8Kind a, b;
    bool perToken, perChannel;
  } cases[] = {
      {1, 40, 16, Fp8Kind::E4M3FN, Fp8Kind::E4M3FN, false, true},
      {7, 24, 48, Fp8Kind::E4M3FN, Fp8Kind::E5M2, true, true},
      {33, 77, 32, Fp8Kind::E5M2, Fp8Kind::E4M3FN, true, false},
      {16, 9, 129, Fp8Kind::E5M2, Fp8Kind::E5M2, false, false},
  };
  for (const Case &c : cases) {
    std::vector<uint8_t> a = randomCodes(random, c.m * c.k, c.a);
    std::vector<uint8_t> b = randomCodes(random, c.n * c.k, c.b);
    Fp8Scale sa, sb;
    sa.values = randomScales(random, c.perToken ? c.m : 1);
    sb.values = randomScales(random, c.perChannel ? c.n : 1);
    std::vector<double> ours =
        referenceScaledMatmul(a, c.a, b, c.b, c.m, c.n, c.k, sa, sb);
    std::vector<double> theirs =
        dequantiseFirst(a, c.a, b, c.b, c.m, c.n, c.k, sa.values, sb.values);
    ASSERT_EQ(ours.size(), theirs.size());
    // The two orders differ by double roundings only: K products and sums
    // of at most 2^-52 relative error each, against the sum of magnitudes.
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = 0; j < c.n; ++j) {
        long double magnitude = 0;
        for (int64_t l = 0; l < c.k; ++l)
          magnitude += std::fabs(decodeFp8(a[i * c.k + l], c.a) *
                                 decodeFp8(b[j * c.k + l], c.b)) *
                       sa.at(i) * sb.at(j);
        double tolerance = 4.0 * c.k * 0x1p-52 * static_cast<double>(magnitude);
        EXPECT_NEAR(ours[i * c.n + j], theirs[i * c.n + j], tolerance)
            << c.m << "x" << c.n << "x" << c.k << " at " << i << ", " << j;
      }
  }
}

TEST(Fp8ScaledMatmulTest, ResultQuantisesUnderItsScale) {
  // 300 / 0.5 = 600 saturates to 448; 3 / 0.25 = 12 is exact; 0.3 / 0.125
  // = 2.4 rounds to 2.5 (e4m3's neighbours there are 2.25 and 2.5).
  EXPECT_EQ(
      decodeFp8(quantiseFp8Result(300, 0.5, Fp8Kind::E4M3FN), Fp8Kind::E4M3FN),
      448.0);
  EXPECT_EQ(
      decodeFp8(quantiseFp8Result(3, 0.25, Fp8Kind::E4M3FN), Fp8Kind::E4M3FN),
      12.0);
  EXPECT_EQ(decodeFp8(quantiseFp8Result(0.3, 0.125, Fp8Kind::E4M3FN),
                      Fp8Kind::E4M3FN),
            2.5);
}

} // namespace
