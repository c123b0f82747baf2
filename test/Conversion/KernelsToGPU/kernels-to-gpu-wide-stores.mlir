// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=pingpong tiles=128x128" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s
// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=pingpong tiles=128x128" --convert-sol-to-linalg --convert-sol-kernels-to-gpu=wide-stores=false --canonicalize | FileCheck %s --check-prefix=PAIRS
// RUN: rm -rf %t && sol-opt %s --split-input-file --sol-to-ptx="out-dir=%t paths=wgmma_tma schedules=pingpong tiles=128x128" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/wide_residual_matmul_0.ptx
// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=pingpong tiles=128x144" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=LEFTOVER

// wide-stores (on by default): a wgmma fragment's lane holds two columns of
// each n8 block, so its 16-bit results would go out as 4-byte stores (what
// wide-stores=false keeps), 16 bytes per row per warp instruction. Instead
// each four blocks of a row are transposed
// across the lane quad (two butterfly stages: xor 2, then xor 1, two
// shuffles each per four words) and stored 16 bytes per lane: a 128-column
// ping-pong tile's 16 blocks are 4 groups x 2 row halves x 2 accumulators
// = 16 vector stores per lane, against 64 pair stores. The residual is
// still read in fragment pairs. ptxas assembles it.
// CHECK-LABEL: gpu.func @wide_residual_matmul_0
//       CHECK:   vector.load %{{.*}} : memref<{{.*}}xf16>, vector<2xf16>
//       CHECK:   nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
//       CHECK:   nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
//       CHECK:   vector.store %{{.*}} : memref<{{.*}}xf16>, vector<8xf16>
//   CHECK-NOT:   vector.store {{.*}}, vector<2xf16>
// PTX-COUNT-16: st.global.v4.b32
//     PTX-NOT: st.global.b32
// A 144-column tile has 18 n8 blocks: per accumulator, four groups of four
// go wide (8 stores: 4 groups x 2 row halves) and the last two blocks keep
// their pair stores (4: 2 blocks x 2 row halves).
// LEFTOVER-LABEL: gpu.func @wide_residual_matmul_0
//  LEFTOVER-SAME:   tile = [128, 144, 64]
// LEFTOVER-COUNT-8:   vector.store {{.*}}, vector<8xf16>
// LEFTOVER-COUNT-4:   vector.store {{.*}}, vector<2xf16>
// LEFTOVER-COUNT-8:   vector.store {{.*}}, vector<8xf16>
// LEFTOVER-COUNT-4:   vector.store {{.*}}, vector<2xf16>
//   LEFTOVER-NOT:   vector.store
// PAIRS-LABEL: gpu.func @wide_residual_matmul_0
//   PAIRS-NOT:   nvvm.shfl.sync  bfly
//   PAIRS-NOT:   vector<8xf16>
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @wide_residual(%x: tensor<300x512xf16>, %w: tensor<264x512xf16>, %r: tensor<300x264xf16>) -> tensor<300x264xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<300x512xf16>, tensor<264x512xf16> -> tensor<300x264xf16>
  %s = sol.add %m, %r : tensor<300x264xf16>, tensor<300x264xf16> -> tensor<300x264xf16>
  return %s : tensor<300x264xf16>
}
}

// -----

// An f32 result is 8 bytes a pair: it keeps the fragment's stores.
// LEFTOVER-LABEL: gpu.func @f32_result_matmul_0
// CHECK-LABEL: gpu.func @f32_result_matmul_0
//   CHECK-NOT:   nvvm.shfl.sync  bfly
//       CHECK:   vector.store %{{.*}} : memref<{{.*}}xf32>, vector<2xf32>
// PAIRS-LABEL: gpu.func @f32_result_matmul_0
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @f32_result(%x: tensor<300x512xf16>, %w: tensor<264x512xf16>) -> tensor<300x264xf32> {
  %m = sol.matmul %x, %w transpose_b : tensor<300x512xf16>, tensor<264x512xf16> -> tensor<300x264xf16>
  %c = sol.cast %m : tensor<300x264xf16> to tensor<300x264xf32>
  return %c : tensor<300x264xf32>
}
}

// -----

// N not a multiple of 8: an n8 block may straddle N, and a row's 16 bytes
// would not be aligned. The fragment's stores stay.
// LEFTOVER-LABEL: gpu.func @ragged_n_matmul_0
// CHECK-LABEL: gpu.func @ragged_n_matmul_0
//   CHECK-NOT:   nvvm.shfl.sync  bfly
//       CHECK:   vector.store %{{.*}} : memref<{{.*}}xf16>, vector<2xf16>
// PAIRS-LABEL: gpu.func @ragged_n_matmul_0
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @ragged_n(%x: tensor<300x512xf16>, %w: tensor<262x512xf16>) -> tensor<300x262xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<300x512xf16>, tensor<262x512xf16> -> tensor<300x262xf16>
  return %m : tensor<300x262xf16>
}
}
