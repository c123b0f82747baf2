// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile=remarks=true -o /dev/null 2>&1 | FileCheck %s
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="remarks=true small-m-siblings=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIB64

// A sibling pair (SwiGLU's gate and up over one A, one kernel) at 192 rows.
// The model would take wgmma_tma's 64-row ping-pong tiles (small-m-tma)
// for it, 11.0 us against 17.7 for cooperative 128x128 ones, but the pair's
// epilogue on one m64 accumulator per ping-pong consumer has not run on a
// GPU (the GPU matrix's 64-row cases are single matmuls), so the pair
// takes them only with small-m-siblings, which the GPU bundle's _sib64
// cases set.
// CHECK: remark: plan wgmma_tma: 128x128x64 tile (64 columns of each weight), TMA producer + 2 consumer warpgroups, 6 stages, persistent, predicted 17.69 us
// SIB64: remark: plan wgmma_tma: 64x128x64 tile (64 columns of each weight), TMA producer + 2 ping-pong consumer warpgroups, 8 stages, persistent, predicted 11.027 us
module attributes {sol.target = #sol.target<"h200">} {
func.func @sibling_pair_keeps_128_row_tiles(%x: tensor<192x2048xbf16>, %wg: tensor<1024x2048xbf16>, %wu: tensor<1024x2048xbf16>) -> tensor<192x1024xbf16> {
  %g = sol.matmul %x, %wg transpose_b : tensor<192x2048xbf16>, tensor<1024x2048xbf16> -> tensor<192x1024xbf16>
  %s = sol.silu %g : tensor<192x1024xbf16>
  %u = sol.matmul %x, %wu transpose_b : tensor<192x2048xbf16>, tensor<1024x2048xbf16> -> tensor<192x1024xbf16>
  %p = sol.mul %s, %u : tensor<192x1024xbf16>, tensor<192x1024xbf16> -> tensor<192x1024xbf16>
  return %p : tensor<192x1024xbf16>
}
}
