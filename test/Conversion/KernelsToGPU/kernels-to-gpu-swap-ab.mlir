// RUN: sol-opt %s --split-input-file --sol-annotate --sol-form-kernels --sol-tile="paths=swap_ab" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// swap_ab: the weight is mma.sync's 16-row A operand, the 3 tokens one n8
// B tile. A block's 16 columns (grid x) and 8-token rows (grid y); each lane
// loads 128-bit vectors of its two weight rows and its token straight into
// fragments (no shared memory for operands), past K zeroed by a select. The
// 8 warps split K; one trip covers it here (8 x 128 >= 1000), so the loop
// folds away. Each warp stores its f32 partials into dynamic shared memory
// ([warps][8 tokens][16 columns]), and after a barrier the block's threads
// sum the 8 partials of each output in warp order and run the residual
// epilogue in bounds. The kernel asks ptxas for the registers of a whole
// trip in flight (4 loads of 3 vectors, 4 accumulators and 16 more: 68 a
// thread), three 256-thread blocks an SM (.minnctapersm): left to itself
// ptxas issues the loads a few at a time (bench/NOTES.md section 35).
// CHECK-LABEL: gpu.func @decode3_matmul_0
//  CHECK-SAME:   known_block_size = array<i32: 256, 1, 1>
//  CHECK-SAME:   nvvm.minctasm = 3 : i32
//  CHECK-SAME:   sol.plan = #sol.plan<path = swap_ab, tile = [8, 16, 1024], warps = [8, 1], stages = 1, split_k = 1>
//       CHECK:   gpu.block_id  x
//       CHECK:   gpu.block_id  y
//       CHECK:   vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<77000xbf16>, vector<8xbf16>
//       CHECK:   vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<77000xbf16>, vector<8xbf16>
//       CHECK:   vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<3000xbf16>, vector<8xbf16>
//       CHECK:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16>
//       CHECK:   nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
//       CHECK:   %[[DYN:.*]] = gpu.dynamic_shared_memory
//       CHECK:   %[[PARTIALS:.*]] = memref.view %[[DYN]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.store %{{.*}}, %[[PARTIALS]]
//       CHECK:   gpu.barrier
//       CHECK:   scf.for %[[O:.*]] = %thread_id_x to %c128 step %c256 {
//       CHECK:     memref.load %[[PARTIALS]][%[[O]]]
// CHECK-COUNT-7:   arith.addf %{{.*}}, %{{.*}} : f32
//       CHECK:     scf.if
//       CHECK:   gpu.return
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode3(%x: tensor<3x1000xbf16>, %w: tensor<77x1000xbf16>, %r: tensor<3x77xbf16>) -> tensor<3x77xbf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<3x1000xbf16>, tensor<77x1000xbf16> -> tensor<3x77xbf16>
  %s = sol.add %m, %r : tensor<3x77xbf16>, tensor<3x77xbf16> -> tensor<3x77xbf16>
  return %s : tensor<3x77xbf16>
}
}

// -----

// A deep K keeps the trip loop: 29 tokens take four n8 tiles, so a lane
// has two 128-bit loads in flight per trip (64 elements of K a warp), and
// 16 warps cover 1024 a trip: 8 trips over 8192, the 16 f32 accumulators
// (4 tiles x 4) carried as iter_args, 16 MMAs a trip (2 loads x 2 k16
// halves x 4 tiles). A trip's 12 vectors and 16 accumulators take 80
// registers a thread: one 512-thread block an SM.
// CHECK-LABEL: gpu.func @deep29_matmul_0
//  CHECK-SAME:   nvvm.minctasm = 1 : i32
//  CHECK-SAME:   sol.plan = #sol.plan<path = swap_ab, tile = [32, 16, 1024], warps = [16, 1], stages = 1, split_k = 1>
//       CHECK:   scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(
// CHECK-COUNT-16: nvvm.mma.sync
//       CHECK:     scf.yield
//       CHECK:   gpu.barrier
module attributes {sol.target = #sol.target<"h200">} {
func.func @deep29(%x: tensor<29x8192xf16>, %w: tensor<64x8192xf16>) -> tensor<29x64xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<29x8192xf16>, tensor<64x8192xf16> -> tensor<29x64xf16>
  return %m : tensor<29x64xf16>
}
}

// -----

// Weight-only fp8 (docs/fp8.md, "Weight-only"): a lane's 128-bit weight load
// is 16 e4m3 codes (bitcast to i8: a masked code is 0, +0.0), met by two
// 128-bit loads of its token; each code pair converts to f16x2
// (cvt.rn.f16x2.e4m3x2) and, for a bf16 A, to bf16 through f32 (exact:
// every e4m3 value is a bf16), so the MMAs are bf16 ones on half the
// weight's bytes; scale_b multiplies the sum in the epilogue.
// CHECK-LABEL: gpu.func @weight_only8_matmul_0
//  CHECK-SAME:   sol.plan = #sol.plan<path = swap_ab, tile = [8, 16, {{[0-9]+}}]
//       CHECK:   vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<65536xf8E4M3FN>, vector<16xf8E4M3FN>
//       CHECK:   arith.bitcast %{{.*}} : vector<16xf8E4M3FN> to vector<16xi8>
//       CHECK:   vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<8192xbf16>, vector<8xbf16>
//       CHECK:   vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<8192xbf16>, vector<8xbf16>
//       CHECK:   nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
//       CHECK:   arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
//       CHECK:   arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
//       CHECK:   nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
//       CHECK:   gpu.barrier
//       CHECK:   memref.load %arg2
//       CHECK:   arith.mulf
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only8(%x: tensor<8x1024xbf16>, %w: tensor<64x1024xf8E4M3FN>, %sw: tensor<64xf32>) -> tensor<8x64xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<64xf32>) : tensor<8x1024xbf16>, tensor<64x1024xf8E4M3FN> -> tensor<8x64xbf16>
  return %m : tensor<8x64xbf16>
}
}

// -----

// Against an f16 A the codes need one cvt.rn.f16x2.e4m3x2 a pair (already
// A's type): no f32 round trip, f16 MMAs.
// CHECK-LABEL: gpu.func @weight_only_f16_matmul_0
//       CHECK:   nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
//   CHECK-NOT:   arith.extf
//       CHECK:   nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32)
//       CHECK:   gpu.barrier
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only_f16(%x: tensor<8x1024xf16>, %w: tensor<64x1024xf8E4M3FN>, %sw: tensor<64xf32>) -> tensor<8x64xf16> {
  %m = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<64xf32>) : tensor<8x1024xf16>, tensor<64x1024xf8E4M3FN> -> tensor<8x64xf16>
  return %m : tensor<8x64xf16>
}
}

// -----

// Weight-only past 32 rows: 32-row blocks stacked along grid.y; a block's
// rows start at block_id.y x 32, its token loads clamp to the last row (39)
// and its stores keep to the 40 rows.
// CHECK-LABEL: gpu.func @weight_only40_matmul_0
//  CHECK-SAME:   sol.plan = #sol.plan<path = swap_ab, tile = [32,
//       CHECK:   %[[BY:.*]] = gpu.block_id  y
//       CHECK:   %[[ROW0:.*]] = arith.muli %[[BY]], %c32 : index
//       CHECK:   %[[TOKEN:.*]] = arith.addi %[[ROW0]], %{{.*}} : index
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[TOKEN]], %c40 : index
//       CHECK:   arith.select %[[IN]], %[[TOKEN]], %c39 : index
//       CHECK:   scf.for
//       CHECK:     %[[ROW:.*]] = arith.addi %[[ROW0]], %{{.*}} : index
//       CHECK:     %[[STORED:.*]] = arith.cmpi ult, %[[ROW]], %c40 : index
//       CHECK:     arith.andi %[[STORED]], %{{.*}} : i1
module attributes {sol.target = #sol.target<"h200">} {
func.func @weight_only40(%x: tensor<40x64xbf16>, %w: tensor<16x64xf8E4M3FN>, %sw: tensor<16xf32>) -> tensor<40x16xbf16> {
  %m = sol.matmul %x, %w transpose_b scale_b(%sw : tensor<16xf32>) : tensor<40x64xbf16>, tensor<16x64xf8E4M3FN> -> tensor<40x16xbf16>
  return %m : tensor<40x16xbf16>
}
}
