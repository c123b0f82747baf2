// RUN: not sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="remarks=true split-k=3" -o /dev/null 2>&1 | FileCheck %s
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="remarks=true split-k=3 block-split-k=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT

// Block-wise fp8 scales (docs/fp8.md) split K only with block-split-k: each
// split promotes its own K tiles and the splits' promoted partials sum as
// any split's do, but the generator's split form has not run on a GPU, so
// sol-tile offers it only when asked (the GPU bundle's _blocksk cases). At
// 64 rows of the MLP up projection the unsplit kernel runs 80 tiles of 20 K
// steps on 132 SMs (60.5 us on an H100, bench/NOTES.md section 51). Forcing
// three splits without the option says which option holds them back.
// CHECK: error: sol-tile: cannot plan kernel @block_wise_mlp_64_rows_matmul_0: no plan the constraints allow (tiles, schedules, min-cluster, split-k) can compute this matmul (block-wise scales split K only with block-split-k=true)
// SPLIT: remark: plan wgmma_tma: 64x128x128 tile, TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, K split over 3 units
module attributes {sol.target = #sol.target<"h200">} {
func.func @block_wise_mlp_64_rows(%x: tensor<64x2560xf8E4M3FN>, %w: tensor<10240x2560xf8E4M3FN>, %sx: tensor<64x20xf32>, %sw: tensor<80x20xf32>) -> tensor<64x10240xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<64x20xf32>) scale_b(%sw : tensor<80x20xf32>) : tensor<64x2560xf8E4M3FN>, tensor<10240x2560xf8E4M3FN> -> tensor<64x10240xbf16>
  return %m : tensor<64x10240xbf16>
}
}
