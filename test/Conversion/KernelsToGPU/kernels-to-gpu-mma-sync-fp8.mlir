// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=mma_sync max-split-k=1" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// mma.sync's fp8 form on sm_89 (the l40s preset): the mma.sync path with
// 1-byte codes. Its stages hold each operand in its own fp8 type (cp.async
// copies 16 codes per 16-byte chunk; rows padded by 16 bytes: 128 + 16),
// ldmatrix reads i8 views of the same bytes (NVGPU's lowering builds LLVM
// vectors of the element type, which fp8 has none of), each 8x8 b16 matrix
// giving a thread four codes in one b32, and every 32 of K is one
// m16n8k32 mma.sync naming each operand's kind (PTX's instruction: NVVM's
// mma op has no fp8 form in MLIR 22), which needs PTX ISA 8.4: the
// gpu.module asks for it. The scales multiply the f32 accumulator in the
// epilogue, as on every path.
// CHECK-LABEL: gpu.module @fp8_codes_take_m16n8k32_matmul_0 attributes {sol.min_ptx_version = 84 : i64}
//       CHECK:   gpu.func @fp8_codes_take_m16n8k32_matmul_0(%[[A:.*]]: memref<10240xf8E4M3FN>, %[[B:.*]]: memref<51200xf8E5M2>, %{{.*}}: memref<40xf32>, %{{.*}}: memref<200xf32>, %{{.*}}: memref<8000xbf16>) kernel
//  CHECK-SAME:     sol.plan = #sol.plan<path = mma_sync, tile = [16, 16, 128]
//       CHECK:     %[[SA:.*]] = memref.view {{.*}} to memref<6x16x144xf8E4M3FN, #gpu.address_space<workgroup>>
//       CHECK:     %[[SB:.*]] = memref.view {{.*}} to memref<6x16x144xf8E5M2, #gpu.address_space<workgroup>>
//       CHECK:     %[[FA:.*]] = memref.view {{.*}} to memref<6x16x144xi8, #gpu.address_space<workgroup>>
//       CHECK:     %[[FB:.*]] = memref.view {{.*}} to memref<6x16x144xi8, #gpu.address_space<workgroup>>
//       CHECK:     nvgpu.device_async_copy %[[A]][%{{.*}}], %[[SA]][%c0, %{{.*}}, %{{.*}}], 16, %{{.*}} {bypassL1} : memref<10240xf8E4M3FN>
//       CHECK:     nvgpu.device_async_copy %[[B]][%{{.*}}], %[[SB]][%c0, %{{.*}}, %{{.*}}], 16, %{{.*}} {bypassL1} : memref<51200xf8E5M2>
//       CHECK:     scf.for
//       CHECK:       nvgpu.ldmatrix %[[FA]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<6x16x144xi8, #gpu.address_space<workgroup>> -> vector<4x4xi8>
//       CHECK:       vector.bitcast %{{.*}} : vector<4xi8> to vector<1xi32>
//       CHECK:       nvgpu.ldmatrix %[[FB]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<6x16x144xi8, #gpu.address_space<workgroup>> -> vector<4x4xi8>
//       CHECK:       llvm.inline_asm "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" {{.*}} : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//   CHECK-NOT:       nvvm.mma.sync
//       CHECK:     arith.mulf
//       CHECK:     arith.mulf
//       CHECK:     arith.truncf {{.*}} : f32 to bf16
module attributes {sol.target = #sol.target<"l40s">} {
func.func @fp8_codes_take_m16n8k32(%x: tensor<40x256xf8E4M3FN>, %w: tensor<200x256xf8E5M2>, %sx: tensor<40x1xf32>, %sw: tensor<200xf32>) -> tensor<40x200xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<40x1xf32>) scale_b(%sw : tensor<200xf32>) : tensor<40x256xf8E4M3FN>, tensor<200x256xf8E5M2> -> tensor<40x200xbf16>
  return %m : tensor<40x200xbf16>
}
}

// -----

// A 16-bit mma.sync kernel keeps its own form: no i8 views, m16n8k16
// through NVVM's op, and no PTX version asked of its module.
// CHECK-LABEL: gpu.module @f16_keeps_m16n8k16_matmul_0 {
//   CHECK-NOT:   {{[0-9]xi8}}
//       CHECK:   nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>
//   CHECK-NOT:   llvm.inline_asm
module attributes {sol.target = #sol.target<"l40s">} {
func.func @f16_keeps_m16n8k16(%x: tensor<40x256xf16>, %w: tensor<200x256xf16>) -> tensor<40x200xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<40x256xf16>, tensor<200x256xf16> -> tensor<40x200xf16>
  return %m : tensor<40x200xf16>
}
}
