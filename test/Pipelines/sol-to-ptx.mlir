// The whole way from the sol dialect to files on disk: the seed example
// becomes one fused kernel with its manifest (a persistent launch, the two
// TMA maps the launcher must encode), its PTX (Hopper wgmma fed by TMA
// through mbarriers, warp-specialised) and a cubin assembled by ptxas for
// sm_90a. A second run allows 2-CTA clusters: the manifest then asks for the
// cluster launch and B's map boxes half a tile (each block multicasts its
// half).
//
// RUN: rm -rf %t && sol-opt %s --sol-to-ptx=out-dir=%t | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/oproj_residual_matmul_0.json
// RUN: FileCheck %s --check-prefix=PTX < %t/oproj_residual_matmul_0.ptx
// RUN: test -s %t/oproj_residual_matmul_0.cubin
// On the H200 the prefill's B re-reads are not its limit, so a cluster only
// ties; with max-cluster=2 and an L2 of a fifth of the rate, the model
// takes one (128x256 tiles, each block loading half of B's box):
// RUN: sed -e 's/#sol.target<"h200">/#sol.target<name = "h200-slow-l2", chip = "sm_90a", sm_count = 132, clock_mhz = 1830, f16_tflops = 989.0, bf16_tflops = 989.0, tf32_tflops = 494.7, fp8_tflops = 1978.9, f32_simt_tflops = 66.9, hbm_gbps = 4800.0, l2_gbps = 2000.0, l2_bytes = 62914560, smem_per_sm_bytes = 233472, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>/' %s > %t.slow-l2.mlir
// RUN: rm -rf %t.c2 && sol-opt %t.slow-l2.mlir --sol-to-ptx="out-dir=%t.c2 max-cluster=2" -o /dev/null
// RUN: FileCheck %s --check-prefix=CLUSTER < %t.c2/oproj_residual_matmul_0.json
// RUN: FileCheck %s --check-prefix=PTXCLUSTER < %t.c2/oproj_residual_matmul_0.ptx
//
// IR: gpu.binary @oproj_residual_matmul_0 [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// IR-NOT: func.func
//
// MANIFEST:      "args": [
// MANIFEST:        "dtype": "f16",
// MANIFEST-NEXT:   "name": "arg0",
// MANIFEST-NEXT:   "role": "input",
// MANIFEST:        "name": "out0",
// MANIFEST-NEXT:   "role": "output",
// MANIFEST:      "cost": {
// MANIFEST:        "bound": "compute",
// MANIFEST:        "t_ideal_us": 108.5{{[0-9]+}},
// MANIFEST:        "tc_flops": 107374182400
// MANIFEST:      "kernel": "oproj_residual_matmul_0",
// MANIFEST:      "launch": {
// MANIFEST-NEXT:   "block": [
// MANIFEST-NEXT:     384,
// MANIFEST:        "cluster": [
// MANIFEST-NEXT:     1,
// MANIFEST:        "grid": [
// MANIFEST-NEXT:     132,
// MANIFEST-NEXT:     1,
// MANIFEST-NEXT:     1
// MANIFEST:        "smem": 197696
// MANIFEST:      "outputs": [
// MANIFEST-NEXT:   4
// MANIFEST:      "program": [
// MANIFEST:          "op": "arg"
// MANIFEST:          "op": "matmul",
// MANIFEST:          "transpose_b": true
// MANIFEST:          "op": "add",
// MANIFEST:      "target": {
// MANIFEST:        "chip": "sm_90a",
// MANIFEST:        "l2_bytes": 62914560,
// MANIFEST:      "tensor_maps": [
// MANIFEST-NEXT:   {
// MANIFEST-NEXT:     "arg": 0,
// MANIFEST-NEXT:     "box": [
// MANIFEST-NEXT:       64,
// MANIFEST-NEXT:       128
// MANIFEST-NEXT:     ],
// MANIFEST-NEXT:     "dims": [
// MANIFEST-NEXT:       2560,
// MANIFEST-NEXT:       8192
// MANIFEST:          "swizzle": "128B"
// MANIFEST:          "arg": 1,
// MANIFEST-NEXT:     "box": [
// MANIFEST-NEXT:       64,
// MANIFEST-NEXT:       256
// MANIFEST-NEXT:     ],
// MANIFEST-NEXT:     "dims": [
// MANIFEST-NEXT:       2560,
// MANIFEST-NEXT:       2560
//
// PTX: .target sm_90a
// PTX: .visible .entry oproj_residual_matmul_0(
// PTX: .param .align 64 .b8 oproj_residual_matmul_0_param_4[128],
// PTX: .param .align 64 .b8 oproj_residual_matmul_0_param_5[128]
// PTX: cvta.param.u64
// PTX: mbarrier.init.shared.b64
// PTX: prefetch.tensormap
// PTX-NOT: barrier.cluster
// PTX: setmaxnreg.inc.sync.aligned.u32 232
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.fence.sync.aligned
// PTX: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// PTX: wgmma.wait_group.sync.aligned
// PTX: mbarrier.arrive.shared.b64
// PTX: setmaxnreg.dec.sync.aligned.u32 40
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// PTX-NOT: multicast
//
// CLUSTER:      "cluster": [
// CLUSTER-NEXT:   2,
// CLUSTER:      "tensor_maps": [
// CLUSTER:        "arg": 1,
// CLUSTER-NEXT:   "box": [
// CLUSTER-NEXT:     64,
// CLUSTER-NEXT:     128
// PTXCLUSTER: barrier.cluster.arrive.aligned
// PTXCLUSTER: mbarrier.arrive.shared::cluster.b64
// PTXCLUSTER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
module attributes {sol.target = #sol.target<"h200">} {
  func.func @oproj_residual(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>,
                            %r: tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    %p = sol.matmul %x, %w transpose_b
        : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
    %o = sol.add %p, %r
        : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
    return %o : tensor<16x512x2560xf16>
  }
}
