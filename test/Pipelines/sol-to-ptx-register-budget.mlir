// The register budget reaches ptxas: a kernel whose K loop waits on its own
// loads (swap_ab, gemv) declares the blocks per SM its plan is built for
// (PTX .minnctapersm), so ptxas keeps a step's loads in flight instead of
// aiming at full occupancy (bench/NOTES.md section 35). The mma_sync and
// TMA kernels pipeline through shared memory and leave it to ptxas.
// RUN: rm -rf %t.sab && sol-opt %s --sol-to-ptx="out-dir=%t.sab paths=swap_ab" > /dev/null
// RUN: FileCheck %s --check-prefix=SWAPAB < %t.sab/decode8_matmul_0.ptx
// RUN: rm -rf %t.gemv && sol-opt %s --sol-to-ptx="out-dir=%t.gemv paths=gemv" > /dev/null
// RUN: FileCheck %s --check-prefix=GEMV < %t.gemv/decode8_matmul_0.ptx
// RUN: rm -rf %t.mma && sol-opt %s --sol-to-ptx="out-dir=%t.mma paths=mma_sync" > /dev/null
// RUN: FileCheck %s --check-prefix=MMA < %t.mma/decode8_matmul_0.ptx

// 8 tokens on 16 warps splitting K: a trip's 12 vectors, 4 accumulators
// and 16 more registers (68 a thread) allow one 512-thread block an SM.
// SWAPAB: .maxntid 512, 1, 1
// SWAPAB-NEXT: .minnctapersm 1
// SWAPAB: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// 8 rows on gemv: a step's 4 weight and 32 row vectors and 8 sums (168
// registers a thread) allow three 128-thread blocks an SM.
// GEMV: .maxntid 128, 1, 1
// GEMV-NEXT: .minnctapersm 3

// MMA-NOT: .minnctapersm
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode8(%x: tensor<8x4096xbf16>, %w: tensor<1024x4096xbf16>) -> tensor<8x1024xbf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<8x4096xbf16>, tensor<1024x4096xbf16> -> tensor<8x1024xbf16>
  return %m : tensor<8x1024xbf16>
}
}
