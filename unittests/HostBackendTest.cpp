//===- HostBackendTest.cpp - calling CPU kernels through the host backend -===//
//
// The host backend's `void *` call path serves the dynamic kernel ABI too:
// callAtDim appends the pointer to the dim, and the kernel (in
// HostDynamicKernelFixture.c) reads it during the call.
//
//===----------------------------------------------------------------------===//

#include "runtime/HostBackend.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace sol::runtime;

TEST(HostBackendTest, DynamicKernelReadsTheDimItIsCalledAt) {
  HostKernel kernel;
  std::string error;
  ASSERT_TRUE(
      kernel.load(SOL_HOST_DYNAMIC_KERNEL_FIXTURE, "twice_plus_row_f32", error))
      << error;
  constexpr int cols = 4;
  for (int64_t m : {0, 1, 3, 17}) {
    std::vector<float> in(m * cols + 1), out(m * cols + cols, NAN);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = 0.25f * i;
    ASSERT_TRUE(kernel.callAtDim({in.data(), out.data()}, m, error)) << error;
    for (int64_t i = 0; i < m; ++i)
      for (int j = 0; j < cols; ++j)
        EXPECT_EQ(out[i * cols + j], 2 * in[i * cols + j] + i)
            << "M = " << m << ", row " << i;
    // Rows past M stay unwritten.
    for (int j = 0; j < cols; ++j)
      EXPECT_TRUE(std::isnan(out[m * cols + j])) << "M = " << m;
  }
}

TEST(HostBackendTest, DimPointerCountsTowardTheArgumentLimit) {
  HostKernel kernel;
  std::string error;
  ASSERT_TRUE(
      kernel.load(SOL_HOST_DYNAMIC_KERNEL_FIXTURE, "twice_plus_row_f32", error))
      << error;
  std::vector<void *> args(maxHostKernelArgs, nullptr);
  EXPECT_FALSE(kernel.callAtDim(args, 1, error));
  EXPECT_NE(error.find("at most 32"), std::string::npos) << error;
}
