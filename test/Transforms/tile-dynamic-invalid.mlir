// RUN: sol-opt %s --split-input-file --sol-tile -verify-diagnostics

// Sibling matmuls have one generator, wgmma_tma, which the planner refuses
// below one 128-row tile (each weight streams once either way there, and
// the decode paths take one weight), as it refuses a static sibling kernel
// of fewer rows: a dynamic range reaching below 128 has no plan at its
// small end (sol-fuse does not pair siblings over such a range).
module attributes {sol.target = #sol.target<"h200">} {
func.func @siblings_below_128_rows(%x: tensor<?x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<?x6912xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: at M = 1 (of its range 1..65536): sibling matmuls: 1 rows of A fill less than one 128-row tile: each weight streams once either way, and the decode paths take one weight}}
  %0 = sol.kernel @k ins(%x, %wg, %wu : tensor<?x2560xf16>, tensor<6912x2560xf16>, tensor<6912x2560xf16>) -> tensor<?x6912xf16> {
  ^bb0(%a: tensor<?x2560xf16>, %g: tensor<6912x2560xf16>, %u: tensor<6912x2560xf16>):
    %mg = sol.matmul %a, %g transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %s = sol.silu %mg : tensor<?x6912xf16>
    %mu = sol.matmul %a, %u transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %p = sol.mul %s, %mu : tensor<?x6912xf16>, tensor<?x6912xf16> -> tensor<?x6912xf16>
    sol.yield %p : tensor<?x6912xf16>
  }
  return %0 : tensor<?x6912xf16>
}
}

// -----

// An f32 matmul runs on the SIMT path, whose 16-row tiles put rows / 16
// blocks on grid y: with 4096 rows per unit of M, grid y passes CUDA's
// 65535 past M = 255, inside the range. The error names the first sample
// point with no plan.
module attributes {sol.target = #sol.target<"h200">} {
func.func @simt_grid_past_cuda_limits(%x: tensor<?x4096x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x4096x64xf32> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: at M = 256 (of its range 1..65536): the SIMT plan's grid of 16x16 blocks exceeds CUDA's limits (x <= 2^31 - 1, y and z <= 65535) for 1048576 rows, N = 64, batch 1}}
  %0 = sol.kernel @k ins(%x, %w : tensor<?x4096x64xf32>, tensor<64x64xf32>) -> tensor<?x4096x64xf32> {
  ^bb0(%a: tensor<?x4096x64xf32>, %b: tensor<64x64xf32>):
    %m = sol.matmul %a, %b : tensor<?x4096x64xf32>, tensor<64x64xf32> -> tensor<?x4096x64xf32>
    sol.yield %m : tensor<?x4096x64xf32>
  }
  return %0 : tensor<?x4096x64xf32>
}
}

// -----

// An elementwise kernel's grid x counts blocks of 2048 elements: at M =
// 2^30 rows of 4096, 2^31 blocks, one past CUDA's limit. The range's max is
// always a sample point, and grids only grow with M, so a range that
// outgrows every plan is refused at a sample.
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 2147483647>} {
func.func @elementwise_grid_past_cuda_limits(%x: tensor<?x4096xf16>) -> tensor<?x4096xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: at M = 1073741824 (of its range 1..2147483647): 4398046511104 elements need more than 2147483647 blocks of 2048: grid x exceeds CUDA's limit}}
  %0 = sol.kernel @k ins(%x : tensor<?x4096xf16>) -> tensor<?x4096xf16> {
  ^bb0(%a: tensor<?x4096xf16>):
    %s = sol.neg %a : tensor<?x4096xf16>
    sol.yield %s : tensor<?x4096xf16>
  }
  return %0 : tensor<?x4096xf16>
}
}
