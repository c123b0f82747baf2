// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s
// RUN: rm -rf %t.d && sol-opt %s --split-input-file --sol-to-ptx=out-dir=%t.d -o /dev/null
// RUN: cat %t.d/*.ptx | FileCheck %s --check-prefix=PTX

// fp8 conversions in the epilogue, every path's (docs/fp8.md, section 5):
// arith's truncf to fp8 (after sol.cast's clamp) is one
// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 with the value in the low byte, and
// its extf from fp8 one cvt.rn.f16x2.{e4m3,e5m2}x2 of the code and a zero
// code (LLVM's arith lowering takes neither: fp8 is an i8 to it). Both are
// sm_89's, and LLVM selects them there from PTX 8.1: the gpu.module asks
// for it. ptxas assembles every kernel (sol-write-binaries), on sm_90a and
// on sm_89.

// Static quantisation, an elementwise kernel: the scaled bf16 clamped to
// 448, each element converted, 16 codes stored as one 128-bit vector.
// CHECK-LABEL: gpu.module @quantise_elementwise_mul_0 attributes {sol.min_ptx_version = 81 : i64}
//       CHECK:   gpu.func @quantise_elementwise_mul_0({{.*}}: memref<288xbf16>, {{.*}}: memref<1xbf16>, %[[OUT:.*]]: memref<288xf8E4M3FN>) kernel
//       CHECK:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:     %[[LO:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
//       CHECK:     %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
//       CHECK:     %[[PAIR:.*]] = nvvm.convert.f32x2.to.f8x2 %[[ZERO]], %[[HI]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
//       CHECK:     %[[BYTE:.*]] = arith.trunci %[[PAIR]] : i16 to i8
//       CHECK:     arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
//       CHECK:     %[[CODES:.*]] = vector.from_elements {{.*}} : vector<16xf8E4M3FN>
//       CHECK:     vector.store %[[CODES]], %[[OUT]][%{{.*}}] {alignment = 16 : i64} : memref<288xf8E4M3FN>, vector<16xf8E4M3FN>
// PTX-DAG: cvt.rn.satfinite.e4m3x2.f32
module attributes {sol.target = #sol.target<"h200">} {
func.func @quantise_elementwise(%h: tensor<9x32xbf16>, %inv: tensor<bf16>) -> tensor<9x32xf8E4M3FN> {
  %m = sol.mul %h, %inv : tensor<9x32xbf16>, tensor<bf16> -> tensor<9x32xbf16>
  %q = sol.cast %m : tensor<9x32xbf16> to tensor<9x32xf8E4M3FN>
  return %q : tensor<9x32xf8E4M3FN>
}
}

// -----

// Dequantisation: 16 e5m2 codes in one 128-bit load, each with a zero code
// through the f16x2 conversion (exact), then to f32.
// CHECK-LABEL: gpu.module @dequantise_elementwise_cast_0 attributes {sol.min_ptx_version = 81 : i64}
//       CHECK:   %[[CODES:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<288xf8E5M2>, vector<16xf8E5M2>
//       CHECK:   %[[CODE:.*]] = vector.extract %[[CODES]][0] : f8E5M2 from vector<16xf8E5M2>
//       CHECK:   %[[BYTE:.*]] = arith.bitcast %[[CODE]] : f8E5M2 to i8
//       CHECK:   %[[PAIR:.*]] = vector.from_elements %[[BYTE]], %{{.*}} : vector<2xi8>
//       CHECK:   %[[HALVES:.*]] = nvvm.convert.f8x2.to.f16x2 %[[PAIR]] : vector<2xi8>(f8E5M2) -> vector<2xf16>
//       CHECK:   %[[HALF:.*]] = vector.extract %[[HALVES]][0] : f16 from vector<2xf16>
//       CHECK:   arith.extf %[[HALF]] : f16 to f32
// PTX-DAG: cvt.rn.f16x2.e5m2x2
module attributes {sol.target = #sol.target<"h200">} {
func.func @dequantise_elementwise(%q: tensor<9x32xf8E5M2>, %s: tensor<f32>) -> tensor<9x32xbf16> {
  %h = sol.cast %q : tensor<9x32xf8E5M2> to tensor<9x32xf32>
  %m = sol.mul %h, %s : tensor<9x32xf32>, tensor<f32> -> tensor<9x32xf32>
  %b = sol.cast %m : tensor<9x32xf32> to tensor<9x32xbf16>
  return %b : tensor<9x32xbf16>
}
}

// -----

// An fp8 matmul's fp8 result on the wgmma_tma path: the accumulator fragment
// scaled, divided by scale_out, clamped and converted, two codes per store.
// CHECK-LABEL: gpu.module @fp8_result_on_wgmma_tma_matmul_0 attributes {sol.min_ptx_version = 81 : i64}
//       CHECK:   sol.plan = #sol.plan<path = wgmma_tma
//       CHECK:   wgmma.mma_async
//       CHECK:   %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
//       CHECK:   %[[LO:.*]] = arith.maximumf %[[Q]], %{{.*}} : f32
//       CHECK:   %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
//       CHECK:   nvvm.convert.f32x2.to.f8x2 %{{.*}}, %[[HI]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
//       CHECK:   %[[CODES:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf8E4M3FN>
//       CHECK:   vector.store %[[CODES]], %{{.*}} {alignment = 2 : i64} : memref<4800xf8E4M3FN>, vector<2xf8E4M3FN>
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3
module attributes {sol.target = #sol.target<"h200">} {
func.func @fp8_result_on_wgmma_tma(%x: tensor<100x64xf8E4M3FN>, %w: tensor<48x64xf8E4M3FN>, %sa: tensor<100x1xf32>, %so: tensor<f32>) -> tensor<100x48xf8E4M3FN> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sa : tensor<100x1xf32>) scale_out(%so : tensor<f32>) : tensor<100x64xf8E4M3FN>, tensor<48x64xf8E4M3FN> -> tensor<100x48xf8E4M3FN>
  return %m : tensor<100x48xf8E4M3FN>
}
}

// -----

// On sm_89 (the l40s preset) the same conversions: an e5m2 result on
// mma.sync's m16n8k32, and the PTX 8.4 that instruction asks for (the
// larger of the two versions).
// CHECK-LABEL: gpu.module @e5m2_result_on_sm89_matmul_0 attributes {sol.min_ptx_version = 84 : i64}
//       CHECK:   sol.plan = #sol.plan<path = mma_sync
//       CHECK:   nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
// PTX-DAG: .target sm_89
// PTX-DAG: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32
// PTX-DAG: cvt.rn.satfinite.e5m2x2.f32
module attributes {sol.target = #sol.target<"l40s">} {
func.func @e5m2_result_on_sm89(%x: tensor<40x128xf8E5M2>, %w: tensor<200x128xf8E4M3FN>, %so: tensor<f32>) -> tensor<40x200xf8E5M2> {
  %m = sol.matmul %x, %w transpose_b scale_out(%so : tensor<f32>) : tensor<40x128xf8E5M2>, tensor<200x128xf8E4M3FN> -> tensor<40x200xf8E5M2>
  return %m : tensor<40x200xf8E5M2>
}
}
