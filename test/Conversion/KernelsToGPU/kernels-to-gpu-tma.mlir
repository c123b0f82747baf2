// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="max-cluster=2 schedules=cooperative" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=CLUSTER
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma max-cluster=1 schedules=cooperative" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=SINGLE
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma max-cluster=1 schedules=pingpong tiles=128x128 max-split-k=1" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=PINGPONG
// RUN: sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="paths=wgmma_tma tiles=256x128" --convert-sol-to-linalg --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s --check-prefix=TALL
// The launch the CLUSTER kernel is built for, as its path derives it from the
// plan and the manifest records it: a persistent grid of whole 2-CTA
// clusters, 64 blocks: 8 pairs of the 16 128-row tiles by 4 of 256 columns.
// RUN: rm -rf %t && sol-opt %s --sol-annotate --sol-form-kernels --sol-tile="max-cluster=2 schedules=cooperative" --sol-write-manifests=dir=%t -o /dev/null
// RUN: tr -d ' \n' < %t/tma_residual_matmul_0.json | FileCheck %s --check-prefix=CLUSTER-LAUNCH
// CLUSTER-LAUNCH: "launch":{"block":[384,1,1],"cluster":[2,1,1],"grid":[64,1,1],"smem":197696}

// The wgmma_tma path (sm_90a). The kernel takes its A and B TMA maps after
// its buffers, as pointers the TMA loads name (sol-tensor-map-params later
// makes them by-value parameters). Thread 0 initialises a full
// (1 arrival + TMA bytes) and an empty (the consumer warps of every block of
// the cluster) mbarrier per stage. Warpgroup 0 gives up registers and its
// thread 0 walks the block's tiles (persistent grid), waiting for a stage to
// be empty, announcing the bytes, and issuing the TMA loads (B multicast to
// the 2-CTA cluster, each block loading half); the consumer warpgroups take
// the registers, wait for full, run four wgmma, retire the previous group
// and release its stage on both blocks. empty barriers (mapa + CTA-scope
// arrive). No block leaves before its cluster peer.
// CLUSTER-LABEL: gpu.func @tma_residual_matmul_0
//  CLUSTER-SAME:   %{{.*}}: memref<2000000xf16>, %[[MAPA:.*]]: !llvm.ptr, %[[MAPB:.*]]: !llvm.ptr) kernel
//  CLUSTER-SAME:   known_block_size = array<i32: 384, 1, 1>
//  CLUSTER-SAME:   path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1, cluster = 2
//       CLUSTER:   scf.if
//       CLUSTER:     nvvm.mbarrier.init %{{.*}}, %c1_i32
//       CLUSTER:     nvvm.mbarrier.init %{{.*}}, %c16_i32
//       CLUSTER:     nvvm.fence.mbarrier.init
//       CLUSTER:     nvvm.prefetch tensormap, %[[MAPA]]
//       CLUSTER:     nvvm.prefetch tensormap, %[[MAPB]]
//       CLUSTER:   nvvm.cluster.arrive {aligned}
//       CLUSTER:   nvvm.cluster.wait {aligned}
//       CLUSTER:   nvvm.setmaxregister  decrease 40
//       CLUSTER:   scf.for
//       CLUSTER:     scf.for
//       CLUSTER:       nvvm.mbarrier.try_wait.parity
//       CLUSTER:       nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32
//       CLUSTER:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
//       CLUSTER:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %c3_i16
//       CLUSTER:   } else {
//       CLUSTER:     nvvm.setmaxregister  increase 232
//       CLUSTER:     scf.for
//       CLUSTER:       scf.for {{.*}} iter_args
//       CLUSTER:         nvvm.mbarrier.try_wait.parity
//       CLUSTER:         nvvm.wgmma.fence.aligned
//       CLUSTER-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
//       CLUSTER:         nvvm.wgmma.commit.group.sync.aligned
//       CLUSTER:         nvvm.wgmma.wait.group.sync.aligned 1
//       CLUSTER:         nvvm.mapa %{{.*}}, %c0_i32
//       CLUSTER:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
//       CLUSTER:         nvvm.mapa %{{.*}}, %c1_i32
//       CLUSTER:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
//       CLUSTER:       nvvm.wgmma.wait.group.sync.aligned 0
// The epilogue loads the residual of 16 fragment pairs (guarded loads that
// yield zeros out of bounds) before the first of their stores, so the load
// latencies overlap; each four n8 blocks of a row are then transposed across
// the lane quad and stored 16 bytes per lane (wide-stores, on by default).
//       CLUSTER:       llvm.extractvalue
// CLUSTER-COUNT-16:    vector.load %arg2[%{{.*}}] {alignment = 4 : i64} : memref<2000000xf16>, vector<2xf16>
//   CLUSTER-NOT:       vector.store
//       CLUSTER:       nvvm.shfl.sync  bfly
//       CLUSTER:       scf.if
//       CLUSTER:         vector.store {{.*}} {alignment = 16 : i64} : memref<2000000xf16>, vector<8xf16>
//       CLUSTER:   nvvm.cluster.arrive {aligned}
//       CLUSTER:   nvvm.cluster.wait {aligned}
//       CLUSTER:   gpu.return

// Without a cluster: 8 consumer-warp arrivals on the block's own empty
// barrier, no multicast, a block barrier after the init.
// SINGLE-LABEL: gpu.func @tma_residual_matmul_0
//  SINGLE-SAME:   path = wgmma_tma
//   SINGLE-NOT:   cluster = 2
//       SINGLE:   nvvm.mbarrier.init %{{.*}}, %c8_i32
//       SINGLE:   gpu.barrier
//   SINGLE-NOT:   multicast_mask
//   SINGLE-NOT:   nvvm.mapa
//       SINGLE:   nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
//   SINGLE-NOT:   nvvm.cluster.arrive
//       SINGLE:   gpu.return

// Ping-pong consumers: each warpgroup owns whole 128x128 tiles (two m64
// accumulators, 8 wgmma per K tile), taking every other unit of the
// block's walk; a stage is released by the owning warpgroup's 4 warps.
// Two order mbarriers (4 arrivals) hand the K loop over; consumer 0's gets
// its first phase completed up front (4 arrivals at init), so a consumer
// waits on its own before every tile without a branch, and its warps
// arrive on the other's once the tile's last full wait is behind them,
// before the last wgmma retires and the epilogue (two 64-row halves) runs.
// The warpgroup index comes through a warp shuffle, so ptxas sees the role
// and loop bounds as warp-uniform (see Integration/wgmma-not-serialized).
// PINGPONG-LABEL: gpu.func @tma_residual_matmul_0
//  PINGPONG-SAME:   warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong
//       PINGPONG:   nvvm.shfl.sync  idx
//       PINGPONG:   nvvm.mbarrier.init %{{.*}}, %c1_i32
//       PINGPONG:   nvvm.mbarrier.init %{{.*}}, %c4_i32
// PINGPONG-COUNT-10: nvvm.mbarrier.init
//       PINGPONG:   nvvm.mbarrier.init %{{.*}}, %c4_i32
//       PINGPONG:   nvvm.mbarrier.init %{{.*}}, %c4_i32
// PINGPONG-COUNT-4: nvvm.mbarrier.arrive
//       PINGPONG:   nvvm.setmaxregister  decrease 40
//       PINGPONG:   nvvm.setmaxregister  increase 232
//       PINGPONG:   scf.for %{{.*}} = %{{.*}} to %c128 step %{{.*}} {
//   PINGPONG-NOT:     scf.if
//       PINGPONG:     nvvm.mbarrier.try_wait.parity
//       PINGPONG:     scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
//       PINGPONG:       nvvm.mbarrier.try_wait.parity
// PINGPONG-COUNT-8:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
//       PINGPONG:       nvvm.wgmma.wait.group.sync.aligned 1
//       PINGPONG:       nvvm.mbarrier.arrive
//       PINGPONG:     scf.if
//       PINGPONG:       nvvm.mbarrier.arrive
//       PINGPONG:     nvvm.wgmma.wait.group.sync.aligned 0
//       PINGPONG:     nvvm.mbarrier.arrive
// PINGPONG-COUNT-16: vector.load %arg2
//       PINGPONG:     vector.store
// PINGPONG-COUNT-16: vector.load %arg2
//       PINGPONG:   gpu.return
// 256-row tiles: cooperative consumers of 128 rows each, two m64
// accumulators apiece (8 wgmma per K tile, as ping-pong), both on every
// tile: 8 warps release a stage; a stage holds 256 rows of A and 128 of B
// (49152 bytes), A's box at row 256 x the M tile.
// TALL-LABEL: gpu.func @tma_residual_matmul_0
//  TALL-SAME:   tile = [256, 128, 64], warps = [2, 1], stages = 4, split_k = 1
//       TALL:   nvvm.mbarrier.init %{{.*}}, %c8_i32
//       TALL:   nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32
//       TALL:   arith.muli %{{.*}}, %c256 : index
//       TALL:   nvvm.cp.async.bulk.tensor.shared.cluster.global
// TALL-COUNT-8: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
//       TALL:   nvvm.wgmma.wait.group.sync.aligned 0
//       TALL:   arith.muli %{{.*}}, %c256 : index
//       TALL:   gpu.return
// The H200 with a slow L2 (2 TB/s), so that B's halved re-reads make the
// model take the 2-CTA cluster in the CLUSTER run.
module attributes {sol.target = #sol.target<name = "h200-slow-l2", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.0, bf16_tflops = 989.0, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4800.0, l2_gbps = 2000.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>} {
func.func @tma_residual(%x: tensor<2000x1024xf16>, %w: tensor<1000x1024xf16>, %r: tensor<2000x1000xf16>) -> tensor<2000x1000xf16> {
  %m = sol.matmul %x, %w transpose_b : tensor<2000x1024xf16>, tensor<1000x1024xf16> -> tensor<2000x1000xf16>
  %s = sol.add %m, %r : tensor<2000x1000xf16>, tensor<2000x1000xf16> -> tensor<2000x1000xf16>
  return %s : tensor<2000x1000xf16>
}
}
