// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=pingpong tiles=128x128" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=PINGPONG
// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=cooperative tiles=128x256" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=COOP

// A [K, N] weight (GPT-2's Conv1D) on the TMA kernels, read N-major: the
// producer loads each stage's B tile as tile_n / 64 boxes of 64 columns (the
// 128 bytes of the swizzle) by 64 K rows, each into its own 8 KB block of
// the stage (coordinates: column first, then K); the consumers' B
// descriptors give the 8 KB between blocks as the leading byte offset
// (8192 >> 4 = 512 in bits 16-29) and 1024 bytes between groups of 8 K rows
// as the stride, step 16 K rows (2048 bytes: 128 in the address field) per
// k16 wgmma, and ask wgmma to read B transposed (its `row` layout).
// PINGPONG-LABEL: gpu.func @gpt2_fc_matmul_0
//  PINGPONG-SAME:   path = wgmma_tma, tile = [128, 128, 64]
// B's descriptor bits: (512 << 16) | (64 << 32) | (1 << 62); A's keep the
// K-major ones, (1 << 16) | (64 << 32) | (1 << 62).
//       PINGPONG:   arith.constant 4611686293338849280 : i64
//       PINGPONG:   arith.constant 4611686293305360384 : i64
//       PINGPONG:   nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
//       PINGPONG:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}]
//       PINGPONG:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}]
//       PINGPONG:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}]
//   PINGPONG-NOT:   nvvm.cp.async.bulk.tensor
//       PINGPONG:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]

// COOP-LABEL: gpu.func @gpt2_fc_matmul_0
//  COOP-SAME:   path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1]
//       COOP:   nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32
// COOP-COUNT-5:   nvvm.cp.async.bulk.tensor.shared.cluster.global
//   COOP-NOT:   nvvm.cp.async.bulk.tensor
//       COOP:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, {{.*}} B[<f16>, <one>, <row>]
module attributes {sol.target = #sol.target<"h200">} {
func.func @gpt2_fc(%x: tensor<300x256xf16>, %w: tensor<256x1000xf16>, %b: tensor<1000xf16>) -> tensor<300x1000xf16> {
  %m = sol.matmul %x, %w : tensor<300x256xf16>, tensor<256x1000xf16> -> tensor<300x1000xf16>
  %s = sol.add %m, %b : tensor<300x1000xf16>, tensor<1000xf16> -> tensor<300x1000xf16>
  return %s : tensor<300x1000xf16>
}
}
