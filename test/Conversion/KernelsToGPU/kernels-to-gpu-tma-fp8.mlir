// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=cooperative" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s
// RUN: rm -rf %t && sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma schedules=cooperative" --sol-write-manifests=dir=%t -o /dev/null
// RUN: tr -d ' \n' < %t/fp8_per_token_matmul_0.json | FileCheck %s --check-prefix=MAPS
// RUN: tr -d ' \n' < %t/fp8_per_tensor_mixed_matmul_0.json | FileCheck %s --check-prefix=PROGRAM

// fp8 on the wgmma_tma path (docs/fp8.md, section 5). The kernel takes the
// fp8 codes as byte buffers read only by TMA; a K tile is one 128-byte
// swizzle row, 128 fp8 elements (the plan's tile K), so a stage holds the
// bytes of an f16 stage: 128 rows of A and 128 of B at 128 bytes each, the
// transaction count the producer arms the full barrier with. The consumers
// issue four m64n128k32 e4m3 x e4m3 wgmma per K tile (32 bytes of K each),
// both operands K-major (B `col`: no transpose, which fp8 does not have).
// The epilogue multiplies each accumulator element by scale_a's value of
// its row (one scalar load per row pair) and scale_b's of its columns (one
// 2-wide load along N) before the bias and the GELU; the bf16 results go
// out 16 bytes per lane after a quad transpose (wide-stores).
// CHECK-LABEL: gpu.func @fp8_per_token_matmul_0
//  CHECK-SAME:   %arg0: memref<307200xf8E4M3FN>, %arg1: memref<1024000xf8E4M3FN>, %arg2: memref<300xf32>, %arg3: memref<1000xf32>, %arg4: memref<1000xbf16>, %arg5: memref<300000xbf16>
//  CHECK-SAME:   path = wgmma_tma, tile = [128, 128, 128], warps = [2, 1]
//       CHECK:   nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
//       CHECK:   nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
//       CHECK:   nvvm.wgmma.commit.group.sync.aligned
//       CHECK:   memref.load %arg2[%{{.*}}] : memref<300xf32>
//       CHECK:   vector.load %arg3[%{{.*}}] {alignment = 8 : i64} : memref<1000xf32>, vector<2xf32>
//       CHECK:   vector.load %arg4[%{{.*}}] {alignment = 4 : i64} : memref<1000xbf16>, vector<2xbf16>
//       CHECK:   scf.if
//       CHECK:     %[[ROW:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
//  CHECK-NEXT:     %[[COL:.*]] = arith.mulf %[[ROW]], %{{.*}} : f32
//  CHECK-NEXT:     arith.addf %[[COL]], %{{.*}} : f32
//       CHECK:     math.tanh
//       CHECK:     nvvm.shfl.sync  bfly
//       CHECK:     vector.store %{{.*}}, %arg5[%{{.*}}] {alignment = 16 : i64} : memref<300000xbf16>, vector<8xbf16>

// Both TMA maps move 1-byte elements: 128-element (128-byte) boxes along K.
// MAPS: "tensor_maps":[{"arg":0,"box":[128,128],"dims":[1024,300],"dtype":"f8e4m3fn","l2_promotion":"256B","oob_fill":"zero","swizzle":"128B"},{"arg":1,"box":[128,128],"dims":[1024,1000],"dtype":"f8e4m3fn","l2_promotion":"256B","oob_fill":"zero","swizzle":"128B"}]
module attributes {sol.target = #sol.target<"h200">} {
func.func @fp8_per_token(%x: tensor<300x1024xf8E4M3FN>, %w: tensor<1000x1024xf8E4M3FN>, %sx: tensor<300x1xf32>, %sw: tensor<1000xf32>, %bias: tensor<1000xbf16>) -> tensor<300x1000xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<300x1xf32>) scale_b(%sw : tensor<1000xf32>) : tensor<300x1024xf8E4M3FN>, tensor<1000x1024xf8E4M3FN> -> tensor<300x1000xbf16>
  %b = sol.add %m, %bias : tensor<300x1000xbf16>, tensor<1000xbf16> -> tensor<300x1000xbf16>
  %g = sol.gelu tanh %b : tensor<300x1000xbf16>
  return %g : tensor<300x1000xbf16>
}
}

// -----

// e5m2 activations against an e4m3 weight: wgmma names each operand's kind.
// Per-tensor scales are one value each (a rank-0 and a [1] buffer), read
// once per element pair (no store precedes them). K = 208 leaves the second
// K tile 80 deep: TMA zero-fills the rest of its box.
// CHECK-LABEL: gpu.func @fp8_per_tensor_mixed_matmul_0
//  CHECK-SAME:   %arg0: memref<1456xf8E5M2>, %arg1: memref<16016xf8E4M3FN>, %arg2: memref<1xf32>, %arg3: memref<1xf32>
//  CHECK-SAME:   tile = [128, {{[0-9]+}}, 128]
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e4m3>, <one>, <col>]
//       CHECK:   memref.load %arg2[%{{.*}}] : memref<1xf32>
//       CHECK:   memref.load %arg3[%{{.*}}] : memref<1xf32>
//       CHECK:   arith.mulf
//  CHECK-NEXT:   arith.mulf
//  CHECK-NEXT:   arith.truncf %{{.*}} : f32 to bf16

// The manifest's program names the scales by role, A and B as the
// operands, the fp8 dtypes in the runtime's spelling.
// PROGRAM: "args":[{"dtype":"f8e5m2","name":"arg0","role":"input","shape":[7,208]},{"dtype":"f8e4m3fn","name":"arg1","role":"input","shape":[77,208]},{"dtype":"f32","name":"arg2","role":"input","shape":[]},{"dtype":"f32","name":"arg3","role":"input","shape":[1]}
// PROGRAM: {"dtype":"bf16","op":"matmul","operands":[0,1],"scale_a":2,"scale_b":3,"shape":[7,77],"transpose_b":true}
module attributes {sol.target = #sol.target<"h200">} {
func.func @fp8_per_tensor_mixed(%x: tensor<7x208xf8E5M2>, %w: tensor<77x208xf8E4M3FN>, %sx: tensor<f32>, %sw: tensor<1xf32>) -> tensor<7x77xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<f32>) scale_b(%sw : tensor<1xf32>) : tensor<7x208xf8E5M2>, tensor<77x208xf8E4M3FN> -> tensor<7x77xbf16>
  return %m : tensor<7x77xbf16>
}
}

// -----

// Block-wise scales (docs/fp8.md, "Block-wise scales"): each K tile's four
// wgmma start from a zero accumulator; while they run the consumer loads
// B's block scale of its tile and A's K-group scale of each of its two rows
// for this K tile and multiplies them (the loads' latency hidden behind the
// MMAs, not after them); once they retire (wait_group 0) it adds each
// partial sum times its row's factor to its accumulators (64 FMAs per
// 64x128 accumulator), before the stage is released. The epilogue reads no scale:
// the bias is its only input.
// CHECK-LABEL: gpu.func @fp8_block_wise_matmul_0
//  CHECK-SAME:   %arg0: memref<91200xf8E4M3FN>, %arg1: memref<76000xf8E4M3FN>, %arg2: memref<900xf32>, %arg3: memref<6xf32>, %arg4: memref<250xbf16>, %arg5: memref<75000xbf16>
//  CHECK-SAME:   path = wgmma_tma, tile = [128, 128, 128], warps = [2, 1]
//       CHECK:   %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32,
//       CHECK:   scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]])
//       CHECK:     nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[ZERO]], <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-COUNT-3:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
//   CHECK-NOT:     nvvm.wgmma.wait.group.sync.aligned
//       CHECK:     memref.load %arg3[%{{.*}}] : memref<6xf32>
//   CHECK-NOT:     nvvm.wgmma.wait.group.sync.aligned
//       CHECK:     memref.load %arg2[%{{.*}}] : memref<900xf32>
//       CHECK:     arith.mulf
//       CHECK:     memref.load %arg2[%{{.*}}] : memref<900xf32>
//       CHECK:     arith.mulf
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64:  llvm.intr.fma
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 1
//   CHECK-NOT:   memref.load %arg2
//   CHECK-NOT:   memref.load %arg3
//       CHECK:   gpu.return
module attributes {sol.target = #sol.target<"h200">} {
func.func @fp8_block_wise(%x: tensor<300x304xf8E4M3FN>, %w: tensor<250x304xf8E4M3FN>, %sx: tensor<300x3xf32>, %sw: tensor<2x3xf32>, %bias: tensor<250xbf16>) -> tensor<300x250xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<300x3xf32>) scale_b(%sw : tensor<2x3xf32>) : tensor<300x304xf8E4M3FN>, tensor<250x304xf8E4M3FN> -> tensor<300x250xbf16>
  %b = sol.add %m, %bias : tensor<300x250xbf16>, tensor<250xbf16> -> tensor<300x250xbf16>
  return %b : tensor<300x250xbf16>
}
}
