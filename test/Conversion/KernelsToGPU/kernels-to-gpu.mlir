// The cp.async-fed paths (the TMA path has its own file, kernels-to-gpu-tma):
// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=gemv,mma_sync,wgmma max-split-k=1" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// The mma.sync path: flat buffer arguments (bare pointers once lowered) in
// (ins..., outs...) order, dynamic shared memory cut into padded A and B
// stages, zero-filling cp.async for the edges (18 rows over two 16-row tiles here), ldmatrix,
// m16n8k16 mma.sync accumulating in f32 across a K loop, and the epilogue on
// the accumulators, column pairs loaded and stored 2 wide, each store
// predicated on the output bounds. Host
// functions are gone: launching is the runtime's job.
// CHECK-LABEL: gpu.module @mma_sync_residual_matmul_0
//       CHECK:   gpu.func @mma_sync_residual_matmul_0(%[[A:.*]]: memref<9216xf16>, %[[B:.*]]: memref<20480xf16>, %[[R:.*]]: memref<720xf16>, %[[O:.*]]: memref<720xf16>) kernel
//  CHECK-SAME:     known_block_size = array<i32: 64, 1, 1>
//  CHECK-SAME:     sol.plan = #sol.plan<path = mma_sync, tile = [16, 32, 64]
//       CHECK:     gpu.dynamic_shared_memory
//       CHECK:     %[[SA:.*]] = memref.view {{.*}} to memref<4x16x72xf16, #gpu.address_space<workgroup>>
//       CHECK:     %[[SB:.*]] = memref.view {{.*}} to memref<4x32x72xf16, #gpu.address_space<workgroup>>
//       CHECK:     %[[VALID:.*]] = arith.select %{{.*}}, %c8, %c0 : index
//       CHECK:     nvgpu.device_async_copy %[[A]][%{{.*}}], %[[SA]][%c0, %{{.*}}, %{{.*}}], 8, %[[VALID]] {bypassL1} : memref<9216xf16>
//       CHECK:     nvvm.cp.async.commit.group
//       CHECK:     scf.for
//       CHECK:       nvvm.cp.async.wait.group 2
//       CHECK:       gpu.barrier
//       CHECK:       nvgpu.ldmatrix %[[SA]]{{.*}} {numTiles = 4 : i32, transpose = false}
//       CHECK:       nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//       CHECK:     nvvm.cp.async.wait.group 0
//       CHECK:     scf.if
//       CHECK:       vector.load %[[R]][%{{.*}}] {alignment = 4 : i64} : memref<720xf16>, vector<2xf16>
//       CHECK:       arith.addf
//       CHECK:       arith.truncf
//       CHECK:       vector.store %{{.*}}, %[[O]][%{{.*}}] {alignment = 4 : i64} : memref<720xf16>, vector<2xf16>
//   CHECK-NOT:   func.func
module attributes {sol.target = #sol.target<"h200">} {
func.func @mma_sync_residual(%x: tensor<2x9x512xf16>, %w: tensor<40x512xf16>, %r: tensor<2x9x40xf16>) -> tensor<2x9x40xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<2x9x512xf16>, tensor<40x512xf16> -> tensor<2x9x40xf16>
  %s = sol.add %m, %r : tensor<2x9x40xf16>, tensor<2x9x40xf16> -> tensor<2x9x40xf16>
  return %s : tensor<2x9x40xf16>
}
}

// -----

// bf16 fragments go to mma.sync as packed b32 registers; a [K, N] B is read
// with ldmatrix.trans; the bias is loaded at the column index only.
// CHECK-LABEL: gpu.func @bf16_kn_bias_matmul_0
//       CHECK:   nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
//       CHECK:   llvm.bitcast %{{.*}} : vector<2xbf16> to i32
//       CHECK:   nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
//       CHECK:   scf.if
//       CHECK:     vector.load %arg2[%{{.*}}] {alignment = 4 : i64} : memref<40xbf16>, vector<2xbf16>
module attributes {sol.target = #sol.target<"h200">} {
func.func @bf16_kn_bias(%x: tensor<7x64xbf16>, %w: tensor<64x40xbf16>, %b: tensor<40xbf16>) -> tensor<7x40xbf16> {
  %m = sol.matmul %x, %w : tensor<7x64xbf16>, tensor<64x40xbf16> -> tensor<7x40xbf16>
  %s = sol.add %m, %b : tensor<7x40xbf16>, tensor<40xbf16> -> tensor<7x40xbf16>
  return %s : tensor<7x40xbf16>
}
}

// -----

// The SIMT path: one thread per output element inside the bounds, an f32
// multiply-add over K, then the epilogue.
// CHECK-LABEL: gpu.func @simt_f32_matmul_0
//  CHECK-SAME:   known_block_size = array<i32: 16, 16, 1>
//       CHECK:   scf.if
//       CHECK:     scf.for {{.*}} iter_args
//       CHECK:       arith.mulf
//       CHECK:       arith.addf
//       CHECK:     math.exp
//       CHECK:     memref.store
module attributes {sol.target = #sol.target<"h200">} {
func.func @simt_f32(%x: tensor<7x33xf32>, %w: tensor<77x33xf32>) -> tensor<7x77xf32> {
  %m = sol.matmul %x, %w transpose_b : tensor<7x33xf32>, tensor<77x33xf32> -> tensor<7x77xf32>
  %e = sol.exp %m : tensor<7x77xf32>
  return %e : tensor<7x77xf32>
}
}

// -----

// The elementwise path: one thread per element, a per-row scale read at
// index (row, 0), both outputs of a two-output kernel stored.
// CHECK-LABEL: gpu.func @elementwise_two_outputs_mul_0
//  CHECK-SAME:   (%{{.*}}: memref<539xf16>, %{{.*}}: memref<7xf16>, %[[O0:.*]]: memref<539xf16>, %[[O1:.*]]: memref<539xf16>)
//       CHECK:   scf.if
//       CHECK:     arith.mulf
//       CHECK:     memref.store %{{.*}}, %[[O0]]
//       CHECK:     memref.store %{{.*}}, %[[O1]]
module attributes {sol.target = #sol.target<"h200">} {
func.func @elementwise_two_outputs(%x: tensor<7x77xf16>, %s: tensor<7x1xf16>) -> (tensor<7x77xf16>, tensor<7x77xf16>) {
  %m = sol.mul %x, %s : tensor<7x77xf16>, tensor<7x1xf16> -> tensor<7x77xf16>
  %n = sol.neg %m : tensor<7x77xf16>
  return %m, %n : tensor<7x77xf16>, tensor<7x77xf16>
}
}

// -----

// The gemv path: a warp per weight row, 128-bit loads of the weight and of
// the rows of A, a butterfly reduction, and lane m storing row m. Its
// register budget holds a step's 4 weight and 8 row vectors and 2 sums (66
// registers): seven 128-thread blocks an SM.
// CHECK-LABEL: gpu.func @gemv_decode_matmul_0
//  CHECK-SAME:   known_block_size = array<i32: 128, 1, 1>
//  CHECK-SAME:   nvvm.minctasm = 7 : i32
//       CHECK:   scf.for {{.*}} iter_args
//       CHECK:     vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<163840xf16>, vector<8xf16>
//       CHECK:     math.fma
//       CHECK:   gpu.shuffle  xor
//       CHECK:   arith.cmpi eq
//       CHECK:   scf.if
//       CHECK:     memref.store
module attributes {sol.target = #sol.target<"h200">} {
func.func @gemv_decode(%x: tensor<2x4096xf16>, %w: tensor<40x4096xf16>, %r: tensor<2x40xf16>) -> tensor<2x40xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<2x4096xf16>, tensor<40x4096xf16> -> tensor<2x40xf16>
  %s = sol.add %m, %r : tensor<2x40xf16>, tensor<2x40xf16> -> tensor<2x40xf16>
  return %s : tensor<2x40xf16>
}
}

// -----

// The wgmma path (sm_90a, 64+ rows): two warpgroups, 128-byte swizzled
// stages with no padding (the chunk index XORed with the row), a proxy fence
// between cp.async and the tensor cores, four m64n128k16 wgmma per K tile
// from shared-memory descriptors, one group left in flight.
// CHECK-LABEL: gpu.func @wgmma_residual_matmul_0
//  CHECK-SAME:   known_block_size = array<i32: 256, 1, 1>
//       CHECK:   memref.view {{.*}} to memref<4x128x64xf16, #gpu.address_space<workgroup>>
//       CHECK:   arith.xori
//       CHECK:   nvgpu.device_async_copy
//       CHECK:   scf.for
//       CHECK:     nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//       CHECK:     gpu.barrier
//       CHECK:     nvvm.wgmma.fence.aligned
//       CHECK:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
//       CHECK:     nvvm.wgmma.commit.group.sync.aligned
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 1
//       CHECK:   nvvm.wgmma.wait.group.sync.aligned 0
//       CHECK:   llvm.extractvalue
module attributes {sol.target = #sol.target<"h200">} {
func.func @wgmma_residual(%x: tensor<2000x1024xf16>, %w: tensor<1000x1024xf16>, %r: tensor<2000x1000xf16>) -> tensor<2000x1000xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<2000x1024xf16>, tensor<1000x1024xf16> -> tensor<2000x1000xf16>
  %s = sol.add %m, %r : tensor<2000x1000xf16>, tensor<2000x1000xf16> -> tensor<2000x1000xf16>
  return %s : tensor<2000x1000xf16>
}
}
