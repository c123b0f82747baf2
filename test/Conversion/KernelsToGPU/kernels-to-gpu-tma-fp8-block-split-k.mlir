// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=pingpong split-k=2 block-split-k=true" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// Block-wise fp8 scales with split K (sol-tile's block-split-k): each split
// promotes its own K tiles, so the K block a tile's scales are read for is
// its place in the whole K loop, split x numK + kt, as the producer loads
// it. K = 640 is five blocks; two splits of three K tiles each leave the
// last split's third tile past K (zero-filled by TMA, a zero partial sum),
// whose scales are read at the last block (minui 4), never past the scale
// arrays. The promoted partials then go through the split-K reduction like
// any split's.
// CHECK-LABEL: gpu.func @fp8_block_split_k_matmul_0
//  CHECK-SAME:   %arg2: memref<320xf32>, %arg3: memref<10xf32>
//  CHECK-SAME:   split_k = 2, schedule = pingpong
// CHECK-COUNT-4:   nvvm.wgmma.mma_async
//       CHECK:     nvvm.wgmma.commit.group.sync.aligned
//       CHECK:     %[[FIRST:.*]] = arith.muli %{{.*}}, %c3 : index
//       CHECK:     %[[KTILE:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
//       CHECK:     %[[KBLOCK:.*]] = arith.minui %[[KTILE]], %c4 : index
//       CHECK:     %[[B:.*]] = arith.addi %{{.*}}, %[[KBLOCK]] : index
//       CHECK:     memref.load %arg3[%[[B]]] : memref<10xf32>
//       CHECK:     memref.load %arg2[%{{.*}}] : memref<320xf32>
//       CHECK:     memref.load %arg2[%{{.*}}] : memref<320xf32>
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64:  llvm.intr.fma
//       CHECK:   @sol_split_k_arrivals
module attributes {sol.target = #sol.target<"h200">} {
func.func @fp8_block_split_k(%x: tensor<64x640xf8E4M3FN>, %w: tensor<256x640xf8E4M3FN>, %sx: tensor<64x5xf32>, %sw: tensor<2x5xf32>) -> tensor<64x256xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<64x5xf32>) scale_b(%sw : tensor<2x5xf32>) : tensor<64x640xf8E4M3FN>, tensor<256x640xf8E4M3FN> -> tensor<64x256xbf16>
  return %m : tensor<64x256xbf16>
}
}
