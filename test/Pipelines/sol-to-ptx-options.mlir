// sol-to-ptx's options reach their passes under their own names (one
// options struct, lib/Pipelines, parses them for sol-opt and the C API).
// max-split-k is sol-tile's: on mma.sync (paths, also sol-tile's) sixteen
// decode tokens split K over 4 blocks by default (test/Transforms/tile.mlir
// says why), over none with max-split-k=1, and max-split-k=0 is sol-tile's
// own error.
//
// RUN: rm -rf %t && sol-opt %s --sol-to-ptx="out-dir=%t/default cubin=false paths=mma_sync" -o /dev/null
// RUN: tr -d ' \n' < %t/default/decode16_matmul_0.json | FileCheck %s --check-prefix=DEFAULT
// RUN: sol-opt %s --sol-to-ptx="out-dir=%t/nosplit cubin=false paths=mma_sync max-split-k=1" -o /dev/null
// RUN: tr -d ' \n' < %t/nosplit/decode16_matmul_0.json | FileCheck %s --check-prefix=NOSPLIT
// RUN: not sol-opt %s --sol-to-ptx="max-split-k=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
//
// DEFAULT: "plan":{"cluster":1,"path":"mma_sync",{{[^}]*}}"split_k":4,
// NOSPLIT: "plan":{"cluster":1,"path":"mma_sync",{{[^}]*}}"split_k":1,
// ZERO: error: sol-tile: min-cluster, max-cluster and max-split-k must be at least 1 (got 1, 1 and 0)
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode16(%x: tensor<16x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x1x2560xf16>) -> tensor<16x1x2560xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<16x1x2560xf16>, tensor<2560x2560xf16> -> tensor<16x1x2560xf16>
  %s = sol.add %m, %r : tensor<16x1x2560xf16>, tensor<16x1x2560xf16> -> tensor<16x1x2560xf16>
  return %s : tensor<16x1x2560xf16>
}
}
