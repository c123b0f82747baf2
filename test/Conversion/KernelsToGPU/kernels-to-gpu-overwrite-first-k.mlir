// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma tiles=128x128" --convert-sol-to-linalg --convert-sol-kernels-to-gpu=overwrite-first-k=true --canonicalize | FileCheck %s
// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma tiles=128x128" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=ZEROED
// RUN: rm -rf %t && mkdir -p %t/on %t/off
// RUN: sol-opt %s --split-input-file --sol-to-ptx="out-dir=%t/on paths=wgmma_tma tiles=128x128 overwrite-first-k=true" -o /dev/null
// RUN: sol-opt %s --split-input-file --sol-to-ptx="out-dir=%t/off paths=wgmma_tma tiles=128x128" -o /dev/null
// RUN: sh -c 'for f in %t/on/*.ptx; do "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" -arch=sm_90a -v "$f" -o /dev/null; done' 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=C7519 --implicit-check-not=C7517
// RUN: "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" -arch=sm_90a -v %t/off/pingpong_first_k_tile_overwrites_matmul_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS-ZEROED

// overwrite-first-k: a persistent wgmma_tma consumer starts every unit
// (output tile) with fresh accumulators. Zeroed, they are registers written
// by `mov`s right before the unit's first wgmma, which ptxas must fence:
// it injects a warpgroup.arrive (C7519) before the first and, on this
// ping-pong tile, a warpgroup.wait (C7517) before the second accumulator's
// first wgmma (whose registers are zeroed after the first is issued), so
// that one waits for the first to finish. With the
// option the unit's first K tile is peeled off the loop: its first k16
// step per accumulator has scale-d = 0 (D = A x B) on poison registers,
// the other three steps and the loop from K tile 1 accumulate (the o_proj
// at 8192 rows on ping-pong 128x128 tiles, pinned: 40 K tiles). No mov, no
// injected fence.
// CHECK-LABEL: gpu.func @pingpong_first_k_tile_overwrites_matmul_0
//  CHECK-SAME:   schedule = pingpong
//       CHECK:   %[[POISON:.*]] = llvm.mlir.poison : !llvm.struct
//       CHECK:   nvvm.wgmma.mma_async {{.*}}, %[[POISON]], <m = 64, n = 128, k = 16>, D[<f32>, <zero>]
//       CHECK:   nvvm.wgmma.mma_async {{.*}}, %[[POISON]], <m = 64, n = 128, k = 16>, D[<f32>, <zero>]
//   CHECK-NOT:   D[<f32>, <zero>]
//       CHECK:   scf.for %{{.*}} = %c1 to %c40 step %c1 iter_args
//   CHECK-NOT:   D[<f32>, <zero>]
//       CHECK:   gpu.return
// Without the option the loop runs from K tile 0 on zeroed accumulators.
// ZEROED-LABEL: gpu.func @pingpong_first_k_tile_overwrites_matmul_0
//   ZEROED-NOT:   D[<f32>, <zero>]
//       ZEROED:   scf.for %{{.*}} = %c0 to %c40 step %c1 iter_args
//   ZEROED-NOT:   D[<f32>, <zero>]
//       ZEROED:   gpu.return
// PTXAS-DAG: Function properties for pingpong_first_k_tile_overwrites_matmul_0
// PTXAS-ZEROED: (C7519) warpgroup.arrive is injected
// PTXAS-ZEROED: (C7517) warpgroup.wait is injected
module attributes {sol.target = #sol.target<"h200">} {
func.func @pingpong_first_k_tile_overwrites(%x: tensor<8192x2560xf16>, %w: tensor<2560x2560xf16>) -> tensor<8192x2560xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<8192x2560xf16>, tensor<2560x2560xf16> -> tensor<8192x2560xf16>
  return %m : tensor<8192x2560xf16>
}
}

// -----

// Block-wise fp8 scales: each K tile's wgmmas compute a partial sum that
// the consumer scales and adds to its accumulators with FMAs
// (emitPromotion). With the option every K tile's partials start with a
// scale-d = 0 wgmma on poison registers, the loop's included, where they
// were zeroed per K tile; the FMA accumulators still start from zero.
// CHECK-LABEL: gpu.func @block_wise_partials_overwrite_matmul_0
//       CHECK:   D[<f32>, <zero>]
//       CHECK:   scf.for %{{.*}} = %c1 to
//       CHECK:   D[<f32>, <zero>]
//       CHECK:   gpu.return
// ZEROED-LABEL: gpu.func @block_wise_partials_overwrite_matmul_0
//   ZEROED-NOT:   D[<f32>, <zero>]
//       ZEROED:   gpu.return
// PTXAS-DAG: Function properties for block_wise_partials_overwrite_matmul_0
module attributes {sol.target = #sol.target<"h200">} {
func.func @block_wise_partials_overwrite(%x: tensor<256x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>, %sx: tensor<256x20xf32>, %sw: tensor<20x20xf32>) -> tensor<256x2560xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<256x20xf32>) scale_b(%sw : tensor<20x20xf32>) : tensor<256x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<256x2560xbf16>
  return %m : tensor<256x2560xbf16>
}
}
