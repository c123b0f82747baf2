// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="tiles=128x144" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s
// The launch the generated kernel is built for, which its path derives from
// the plan (the manifest records it): 9 persistent blocks, one per tile,
// 3 of 128 rows by 3 of 72 columns of each weight (fewer than the SMs).
// RUN: rm -rf %t && sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="tiles=128x144" --sol-write-manifests=dir=%t -o /dev/null
// RUN: tr -d ' \n' < %t/siblings_matmul_0.json | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: "launch":{"block":[384,1,1],"cluster":[1,1,1],"grid":[9,1,1],"smem":{{[0-9]+}}}

// Sibling matmuls (SwiGLU's gate and up over one x) on the wgmma_tma path:
// one matmul of twice the width. The kernel takes three maps (A's, then
// each weight's) and says so (sol.tensor_maps), so sol-tensor-map-params
// knows how many parameters are maps. Each stage's B tile is 72 rows of
// each weight, loaded as one box from each map at the same rows (the
// second 72 x 128 bytes = 9216 bytes further), one expect_tx of A's 16 KB
// and both boxes. The consumers run the ring unchanged: m64n144 wgmma, two
// accumulators (ping-pong halves). The epilogue reads the gate's element
// at accumulator column c and the up projection's at c + 72 (n8 block + 9:
// struct field + 36) from the same thread's registers and writes one
// output column.
// CHECK-LABEL: gpu.func @siblings_matmul_0
//  CHECK-SAME:   %{{.*}}: memref<60000xf16>, %[[MAPA:[^:]*]]: !llvm.ptr, %[[MAPG:[^:]*]]: !llvm.ptr, %[[MAPU:[^:]*]]: !llvm.ptr) kernel
//  CHECK-SAME:   path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>
//  CHECK-SAME:   sol.tensor_maps = 3 : i64
//       CHECK:   nvvm.prefetch tensormap, %[[MAPA]]
//       CHECK:   nvvm.prefetch tensormap, %[[MAPG]]
//       CHECK:   nvvm.prefetch tensormap, %[[MAPU]]
//       CHECK:   nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c34816_i32
//       CHECK:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPA]], %{{.*}}, box[%[[K:.*]], %{{.*}}]
//       CHECK:   arith.addi %{{.*}}, %c98304_i64
//       CHECK:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPG]], %{{.*}}, box[%[[K]], %[[ROW:.*]]] :
//       CHECK:   arith.addi %{{.*}}, %c107520_i64
//       CHECK:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPU]], %{{.*}}, box[%[[K]], %[[ROW2:.*]]] :
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 144, k = 16>
//       CHECK:   llvm.extractvalue %{{.*}}[0]
//  CHECK-NEXT:   llvm.extractvalue %{{.*}}[1]
//  CHECK-NEXT:   llvm.extractvalue %{{.*}}[36]
//  CHECK-NEXT:   llvm.extractvalue %{{.*}}[37]
//       CHECK:   gpu.return
module attributes {sol.target = #sol.target<"h200">} {
func.func @siblings(%x: tensor<300x256xf16>, %wg: tensor<200x256xf16>, %wu: tensor<200x256xf16>) -> tensor<300x200xf16> {
  %g = sol.matmul %x, %wg transpose_b : tensor<300x256xf16>, tensor<200x256xf16> -> tensor<300x200xf16>
  %u = sol.matmul %x, %wu transpose_b : tensor<300x256xf16>, tensor<200x256xf16> -> tensor<300x200xf16>
  %s = sol.silu %g : tensor<300x200xf16>
  %p = sol.mul %s, %u : tensor<300x200xf16>, tensor<300x200xf16> -> tensor<300x200xf16>
  return %p : tensor<300x200xf16>
}
}
