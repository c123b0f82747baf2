// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="paths=mma_sync" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// Split K (16-token decode: 4 blocks per 16x64 output tile, grid z). Each
// block walks its quarter of the K tiles, stores its f32 partial tile into
// the module's partials, fences and counts itself in for its output tile
// (one atomic add by thread 0, the verdict passed through shared memory);
// the last to arrive sums the 4 partials in split order, runs the epilogue
// and resets the tile's count to zero for the next launch.
// CHECK-LABEL: gpu.module @decode16_matmul_0
//       CHECK:   memref.global "private" @sol_split_k_partials : memref<163840xf32, #gpu.address_space<global>>
//       CHECK:   memref.global "private" @sol_split_k_arrivals : memref<40xi32, #gpu.address_space<global>> = dense<0>
//       CHECK:   gpu.func @decode16_matmul_0
//  CHECK-SAME:     split_k = 4>
//       CHECK:     %[[Z:.*]] = gpu.block_id  z
//       CHECK:     scf.for %{{.*}} = %c0 to %c10 step %c1
//       CHECK:       nvvm.mma.sync
//       CHECK:     nvvm.cp.async.wait.group 0
//       CHECK:     %[[PARTIALS:.*]] = memref.get_global @sol_split_k_partials
//       CHECK:     %[[ARRIVALS:.*]] = memref.get_global @sol_split_k_arrivals
//       CHECK:     memref.store %{{.*}}, %[[PARTIALS]]
//       CHECK:     llvm.fence syncscope("device") acq_rel
//       CHECK:     gpu.barrier
//       CHECK:     scf.if
//       CHECK:       memref.atomic_rmw addi %{{.*}}, %[[ARRIVALS]]
//       CHECK:     gpu.barrier
//       CHECK:     scf.if
//       CHECK:       llvm.fence syncscope("device") acq_rel
//       CHECK:       memref.load %[[PARTIALS]]
//       CHECK:       arith.addf
//       CHECK:       vector.store
//       CHECK:       memref.store %c0_i32, %[[ARRIVALS]]
//       CHECK:   gpu.return
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode16(%x: tensor<16x1x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<16x1x2560xf16>) -> tensor<16x1x2560xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<16x1x2560xf16>, tensor<2560x2560xf16> -> tensor<16x1x2560xf16>
  %s = sol.add %m, %r : tensor<16x1x2560xf16>, tensor<16x1x2560xf16> -> tensor<16x1x2560xf16>
  return %s : tensor<16x1x2560xf16>
}
}
