// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// fp8 decode on the gemv path (docs/fp8.md, section 5): each lane loads 16
// codes of its weight row per 128-bit access and converts them pairwise
// (nvvm.convert.f8x2.to.f16x2, cvt.rn.f16x2.e4m3x2 in PTX) to f16, then to
// f32 for the FMAs; A's codes the same way with their own kind (e5m2 here).
// The LLVM lowering stores a code as an i8, so the vector is bitcast to i8
// and its pairs taken by shuffles. After the warp's reduction the lane of
// row m multiplies its sum by scale_a's value of row m and scale_b's of its
// column, then adds the residual (the epilogue of every path), and stores.
// CHECK-LABEL: gpu.func @fp8_decode_matmul_0
//  CHECK-SAME:   %arg0: memref<624xf8E5M2>, %arg1: memref<16016xf8E4M3FN>, %arg2: memref<3xf32>, %arg3: memref<77xf32>, %arg4: memref<231xbf16>, %arg5: memref<231xbf16>
//  CHECK-SAME:   path = gemv, tile = [3, 4, 16]
//       CHECK:   %[[W:.*]] = vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<16016xf8E4M3FN>, vector<16xf8E4M3FN>
//       CHECK:   %[[WI:.*]] = arith.bitcast %[[W]] : vector<16xf8E4M3FN> to vector<16xi8>
//       CHECK:   %[[P0:.*]] = vector.shuffle %[[WI]], %[[WI]] [0, 1] : vector<16xi8>, vector<16xi8>
//       CHECK:   nvvm.convert.f8x2.to.f16x2 %[[P0]] : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
//       CHECK:   arith.extf %{{.*}} : f16 to f32
//       CHECK:   vector.shuffle %[[WI]], %[[WI]] [14, 15]
//       CHECK:   %[[X:.*]] = vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<624xf8E5M2>, vector<16xf8E5M2>
//       CHECK:   arith.bitcast %[[X]] : vector<16xf8E5M2> to vector<16xi8>
//       CHECK:   nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
//       CHECK:   math.fma
//       CHECK:   gpu.shuffle xor
//       CHECK:   scf.if
//       CHECK:     %[[SA:.*]] = memref.load %arg2[%c0] : memref<3xf32>
//       CHECK:     %[[SB:.*]] = memref.load %arg3[%{{.*}}] : memref<77xf32>
//       CHECK:     %[[ROW:.*]] = arith.mulf %{{.*}}, %[[SA]] : f32
//  CHECK-NEXT:     %[[COL:.*]] = arith.mulf %[[ROW]], %[[SB]] : f32
//  CHECK-NEXT:     arith.addf %[[COL]], %{{.*}} : f32
//  CHECK-NEXT:     arith.truncf %{{.*}} : f32 to bf16
//  CHECK-NEXT:     memref.store %{{.*}}, %arg5[%{{.*}}] : memref<231xbf16>
module attributes {sol.target = #sol.target<"h200">} {
func.func @fp8_decode(%x: tensor<3x208xf8E5M2>, %w: tensor<77x208xf8E4M3FN>, %sx: tensor<3x1xf32>, %sw: tensor<77xf32>, %r: tensor<3x77xbf16>) -> tensor<3x77xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<3x1xf32>) scale_b(%sw : tensor<77xf32>) : tensor<3x208xf8E5M2>, tensor<77x208xf8E4M3FN> -> tensor<3x77xbf16>
  %s = sol.add %m, %r : tensor<3x77xbf16>, tensor<3x77xbf16> -> tensor<3x77xbf16>
  return %s : tensor<3x77xbf16>
}
}

// -----

// An f16 weight keeps its one conversion per element: no fp8 op appears.
// CHECK-LABEL: gpu.func @f16_decode_matmul_0
//  CHECK-SAME:   path = gemv, tile = [1, 4, 8]
//   CHECK-NOT:   nvvm.convert
//       CHECK:   vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xf16>, vector<8xf16>
//   CHECK-NOT:   nvvm.convert
//       CHECK:   gpu.shuffle xor
module attributes {sol.target = #sol.target<"h200">} {
func.func @f16_decode(%x: tensor<1x208xf16>, %w: tensor<77x208xf16>) -> tensor<1x77xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<1x208xf16>, tensor<77x208xf16> -> tensor<1x77xf16>
  return %m : tensor<1x77xf16>
}
}

// -----

// Weight-only fp8 (a bf16 A against e4m3 codes): each lane's 128-bit load
// of 16 codes meets two 128-bit loads of 8 bf16 elements of each row of A,
// which convert to f32 with no fp8 conversion; scale_b alone multiplies the
// sum, then the bias.
// CHECK-LABEL: gpu.func @weight_only_decode_matmul_0
//  CHECK-SAME:   %arg0: memref<416xbf16>, %arg1: memref<16016xf8E4M3FN>, %arg2: memref<77xf32>, %arg3: memref<77xbf16>, %arg4: memref<154xbf16>
//  CHECK-SAME:   path = gemv, tile = [2, 4, 16]
//       CHECK:   vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<16016xf8E4M3FN>, vector<16xf8E4M3FN>
//       CHECK:   nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
//       CHECK:   %[[X0:.*]] = vector.load %arg0[%[[K0:.*]]] {alignment = 16 : i64} : memref<416xbf16>, vector<8xbf16>
//   CHECK-NOT:   nvvm.convert
//       CHECK:   %[[K1:.*]] = arith.addi %[[K0]], %c8
//       CHECK:   vector.load %arg0[%[[K1]]] {alignment = 16 : i64} : memref<416xbf16>, vector<8xbf16>
//   CHECK-NOT:   nvvm.convert
//       CHECK:   math.fma
//       CHECK:   gpu.shuffle xor
//       CHECK:   scf.if
//       CHECK:     %[[SB:.*]] = memref.load %arg2[%{{.*}}] : memref<77xf32>
//       CHECK:     %[[COL:.*]] = arith.mulf %{{.*}}, %[[SB]] : f32
//       CHECK:     arith.addf %[[COL]], %{{.*}} : f32
//       CHECK:     arith.truncf %{{.*}} : f32 to bf16
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_decode(%x: tensor<2x208xbf16>, %w: tensor<77x208xf8E4M3FN>, %sw: tensor<77xf32>, %bias: tensor<77xbf16>) -> tensor<2x77xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<77xf32>) : tensor<2x208xbf16>, tensor<77x208xf8E4M3FN> -> tensor<2x77xbf16>
  %s = sol.add %m, %bias : tensor<2x77xbf16>, tensor<77xbf16> -> tensor<2x77xbf16>
  return %s : tensor<2x77xbf16>
}
}

// -----

// Against an f16 A the codes convert to A's type in one cvt a pair; e5m2
// codes against bf16 take the same cvt (bench/fp8_codes.py checks every
// code of each route on the GPU).
// CHECK-LABEL: gpu.func @weight_only_f16_decode_matmul_0
//       CHECK:   nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
//       CHECK:   math.fma
//       CHECK:   gpu.shuffle xor
// CHECK-LABEL: gpu.func @weight_only_e5m2_decode_matmul_0
//       CHECK:   nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
//       CHECK:   math.fma
//       CHECK:   gpu.shuffle xor
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_f16_decode(%x: tensor<2x208xf16>, %w: tensor<77x208xf8E4M3FN>, %sw: tensor<77xf32>) -> tensor<2x77xf16> {
  %m = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<77xf32>) : tensor<2x208xf16>, tensor<77x208xf8E4M3FN> -> tensor<2x77xf16>
  return %m : tensor<2x77xf16>
}
func.func @weight_only_e5m2_decode(%x: tensor<2x208xbf16>, %w: tensor<77x208xf8E5M2>, %sw: tensor<77xf32>) -> tensor<2x77xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<77xf32>) : tensor<2x208xbf16>, tensor<77x208xf8E5M2> -> tensor<2x77xbf16>
  return %m : tensor<2x77xbf16>
}
}
