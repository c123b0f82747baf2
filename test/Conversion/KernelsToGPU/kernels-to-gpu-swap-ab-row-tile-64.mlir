// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="paths=swap_ab swap-ab-row-tile-64=true" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// swap-ab-row-tile-64 (bench/NOTES.md section 46; one such kernel passed on
// an H100 on 2026-12-07, none timed): a
// weight-only matmul past 32 rows takes one 64-row tile, eight n8 tiles of
// tokens on each converted code, instead of two stacked 32-row blocks. One
// load of 16 codes a lane per trip here (tile[2] = 4 warps x 4 x 16): four
// k16 steps x eight n8 tiles = 32 MMAs a trip (a 32-row tile issues 16 per
// load; K = 256 is one trip, so no K loop). The block's rows start at block_id.y x 64; token loads clamp to
// the last row (39), the stores keep to the 40 rows.
// CHECK-LABEL: gpu.func @weight_only40_row_tile64_matmul_0
//  CHECK-SAME:   sol.plan = #sol.plan<path = swap_ab, tile = [64, 16, 256], warps = [4, 1]
//       CHECK:   %[[BY:.*]] = gpu.block_id  y
//       CHECK:   %[[ROW0:.*]] = arith.muli %[[BY]], %c64 : index
//       CHECK:   arith.select %{{.*}}, %{{.*}}, %c39 : index
// CHECK-COUNT-32:   nvvm.mma.sync
//   CHECK-NOT:   nvvm.mma.sync
//       CHECK:   gpu.barrier
//       CHECK:   scf.for
//       CHECK:     %[[ROW:.*]] = arith.addi %[[ROW0]], %{{.*}} : index
//       CHECK:     arith.cmpi ult, %[[ROW]], %c40 : index
module attributes {sol.target = #sol.target<"h100-sxm">} {
func.func @weight_only40_row_tile64(%x: tensor<40x256xbf16>, %w: tensor<64x256xf8E4M3FN>, %sw: tensor<64xf32>) -> tensor<40x64xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<64xf32>) : tensor<40x256xbf16>, tensor<64x256xf8E4M3FN> -> tensor<40x64xbf16>
  return %m : tensor<40x64xbf16>
}
}

