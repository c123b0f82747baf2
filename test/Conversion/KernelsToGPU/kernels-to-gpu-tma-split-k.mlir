// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="small-m-tma=true paths=wgmma_tma tiles=64x128 split-k=3" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s
// RUN: rm -rf %t && sol-opt %s --sol-to-ptx="out-dir=%t small-m-tma=true paths=wgmma_tma tiles=64x128 split-k=3" -o /dev/null
// RUN: sol-opt %s --sol-to-ptx="out-dir=%t/coop small-m-tma=true paths=wgmma_tma schedules=cooperative tiles=128x256 split-k=2" -o /dev/null
// RUN: sol-opt %s --sol-to-ptx="out-dir=%t/tall small-m-tma=true paths=wgmma_tma tiles=256x128 split-k=4" -o /dev/null
// RUN: sol-opt %s --sol-to-ptx="out-dir=%t/wide small-m-tma=true paths=wgmma_tma tiles=64x256 split-k=8" -o /dev/null
// RUN: sh -c 'for f in %t/*.ptx %t/*/*.ptx; do "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" -arch=sm_90a -v "$f" -o /dev/null; done' 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=C7520
//
// Split K on the TMA kernel (small-m-tma): 16 rows x 1000 x K = 1000 (16 K
// tiles) on 64x128 ping-pong tiles, split 3 ways: the persistent walk runs
// 8 tiles x 3 splits = 24 units, split-major (split = unit / 8, the tile
// unit = unit % 8), each unit ceil(16 / 3) = 6 K tiles from K tile
// split x 6 (the last split's sixth tile, K tile 17, lies past K and
// zero-fills). Each consumer warp stores its 64 accumulator registers
// lane-interleaved into its slot (8 tiles x 4 warps = 32 slots of 2048
// f32, 3 splits: 196608), fences, syncs the warp and lane 0 counts it in;
// a shuffle hands lane 0's verdict to the warp; the last of a slot's 3
// arrivals fences, sums the 3 partials of each register in split order
// (192 loads) as the epilogue reads it, and resets the slot's count.
// CHECK-LABEL: gpu.module @decode_split3_matmul_0
//       CHECK:   memref.global "private" @sol_split_k_partials : memref<196608xf32, #gpu.address_space<global>>
//       CHECK:   memref.global "private" @sol_split_k_arrivals : memref<32xi32, #gpu.address_space<global>> = dense<0>
//       CHECK:   gpu.func @decode_split3_matmul_0
//  CHECK-SAME:     tile = [64, 128, 64], warps = [1, 1], stages = 8, split_k = 3, schedule = pingpong
// The producer: the units, their split and tile unit, the split's K tiles.
//       CHECK:     scf.for %[[UNIT:.*]] = %block_id_x to %c24 step %grid_dim_x {
//       CHECK:       %[[SPLIT:.*]] = arith.divui %[[UNIT]], %c8 : index
//       CHECK:       arith.remui %[[UNIT]], %c8 : index
//       CHECK:       scf.for %[[KT:.*]] = %c0 to %c6 step %c1 {
//       CHECK:         %[[FIRST:.*]] = arith.muli %[[SPLIT]], %c6 : index
//       CHECK:         arith.addi %[[FIRST]], %[[KT]] : index
//       CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global
// The consumers: each ping-pong consumer every other unit, 6 K tiles each.
//       CHECK:     scf.for %{{.*}} to %c24 step
//       CHECK:       scf.for %{{.*}} = %c0 to %c6 step %c1 iter_args
// CHECK-COUNT-4:       nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
//       CHECK:       %[[PARTIALS:.*]] = memref.get_global @sol_split_k_partials
//       CHECK:       %[[ARRIVALS:.*]] = memref.get_global @sol_split_k_arrivals
// CHECK-COUNT-64:    memref.store %{{.*}}, %[[PARTIALS]]
//   CHECK-NOT:       memref.store %{{.*}}, %[[PARTIALS]]
//       CHECK:       llvm.fence syncscope("device") acq_rel
//       CHECK:       nvvm.bar.warp.sync
//       CHECK:       scf.if
//       CHECK:         memref.atomic_rmw addi %c1_i32, %[[ARRIVALS]]
//       CHECK:       } else {
//       CHECK:       nvvm.shfl.sync  idx
//       CHECK:       scf.if
//       CHECK:         llvm.fence syncscope("device") acq_rel
//       CHECK:         nvvm.bar.warp.sync
// CHECK-COUNT-192:     memref.load %[[PARTIALS]]
//       CHECK:         vector.store
//       CHECK:         memref.store %c0_i32, %[[ARRIVALS]]
//       CHECK:   gpu.return
//
// Every split plan assembles (64x128 ping-pong, cooperative 128x256 with
// eight warps per tile, cooperative 256-row tiles with two accumulators
// per consumer, 64x256 with a 128-register accumulator), and ptxas keeps
// the wgmma unserialised (no C7520): the verdict comes through a shuffle,
// which it knows is warp-uniform. Nothing spills: the last arrival loads
// each sum where the epilogue stores its element (holding a whole tile's
// sums spilled 388 bytes at 64x128 and 2.5 KB at 64x256).
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode_split3(%x: tensor<16x1000xbf16>, %w: tensor<1000x1000xbf16>, %r: tensor<16x1000xbf16>) -> tensor<16x1000xbf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<16x1000xbf16>, tensor<1000x1000xbf16> -> tensor<16x1000xbf16>
  %s = sol.add %m, %r : tensor<16x1000xbf16>, tensor<16x1000xbf16> -> tensor<16x1000xbf16>
  return %s : tensor<16x1000xbf16>
}
}
