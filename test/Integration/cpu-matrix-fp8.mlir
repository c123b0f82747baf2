// The fp8 matmuls (docs/fp8.md) on the CPU: e4m3 x e4m3 (and the mixed
// kinds e5m2 x e4m3, e4m3 x e5m2), scales per tensor and per token and
// channel, plain and with a bf16 bias and tanh GELU, bf16 results, at odd
// shapes (M = 1, 7, 33; N x K = 24 x 48 and 77 x 80: K a multiple of 16 but
// not of the 128-deep K tile, N odd), and a sibling pair (SwiGLU: one A and
// its scale_a, two weights with their own scale_b) at 129 rows; and
// weight-only fp8 (bf16 or f16 A against e4m3 or e5m2 weight codes with
// scale_b alone, the result in A's type, plain per tensor and with a bias
// and a residual per channel) at 1, 7, 29 and 40 rows; fp8 results (the
// matmul's own over scale_out, e4m3 and e5m2, and a bf16 epilogue's cast
// to e4m3 at its end: cvt.rn.satfinite), block-wise scales (scale_a [M,
// 3] and scale_b [2, 3] at N x K = 200 x 304: A's K groups, B's blocks,
// the last K block partial; wgmma_tma promotes each K tile's partial sums)
// and fp8 casts alone (static
// quantisation, the same past the kind's largest value so most of it
// saturates, and dequantisation) at odd shapes. Each case goes the
// whole way to PTX, the decode rows (M = 1 and 7) on the gemv path
// (cvt.rn.f16x2.e4m3x2 / e5m2x2 conversions, f32 FMAs), weight-only at 29
// rows on swap_ab (the codes converted to A's type, to bf16 through f32,
// for m16n8k16 mma.sync), at 40 on two stacked 32-row swap_ab blocks
// (grid.y = 2), the rest on the wgmma_tma path (m64nNk32
// e4m3/e5m2 wgmma), every PTX assembled by ptxas
// for sm_90a (sol-write-binaries fails on a ptxas error). The host
// backend runs the same kernels built for the CPU, which evaluate the
// kernel's linalg form (the scaled accumulator and the epilogue; the fp8
// codes decoded by sol-expand-fp8-conversions), not the PTX, on fresh random fp8
// codes (a new seed each run, printed), against sol-run's float64 reference
// of the manifest's program over the same stored codes.
//
// RUN: python3 %sol_src_root/scripts/gen-matrix.py --profile=cpu --fp8 %t.mlir | FileCheck %s --check-prefix=GEN
// RUN: rm -rf %t.d && sol-opt %t.mlir --sol-to-ptx=out-dir=%t.d -o /dev/null
// RUN: ls %t.d | grep -c '\.cubin$' | FileCheck %s --check-prefix=CUBINS
// RUN: cat %t.d/*.json | FileCheck %s --check-prefix=PLAN
// RUN: cat %t.d/*.ptx | FileCheck %s --check-prefix=PTX
// RUN: cat %t.d/qmm_swiglu_e4m3_token_129x24x48__qmm_swiglu_matmul_0.json | FileCheck %s --check-prefix=SIBLING
// RUN: cat %t.d/wmm_bias_residual_bf16e4m3_channel_7x77x80__wmm_bias_residual_matmul_0.json | FileCheck %s --check-prefix=WEIGHT
// RUN: cat %t.d/wmm_bias_residual_bf16e4m3_channel_29x77x80__wmm_bias_residual_matmul_0.json | FileCheck %s --check-prefix=WEIGHT29
// RUN: cat %t.d/wmm_bias_residual_bf16e4m3_channel_40x77x80__wmm_bias_residual_matmul_0.json | FileCheck %s --check-prefix=WEIGHT40
// RUN: env SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/build-cpu-kernels.sh %t.mlir %t.d > /dev/null
// RUN: ls %t.d/*.json > %t.list
// RUN: sh -c '%sol_src_root/scripts/check-parallel.sh %sol_tools_dir/sol-run %t.list %t.log "cpu fp8 matrix" --backend=host --lib=%t.d/kernels.so --seed=$(od -An -N4 -tu4 /dev/urandom | tr -d " ")' | FileCheck %s
//
// GEN: 81 cases
// CUBINS: 81
// PLAN-NOT: "path": "{{mma_sync|simt|wgmma}}"
// PLAN-DAG: "path": "wgmma_tma"
// PLAN-DAG: "path": "gemv"
// PLAN-DAG: "path": "swap_ab"
// PLAN-DAG: "path": "elementwise"
// WEIGHT: "dtype": "bf16"
// WEIGHT: "dtype": "f8e4m3fn"
// WEIGHT: "path": "gemv"
// WEIGHT29: "dtype": "f8e4m3fn"
// WEIGHT29: "path": "swap_ab"
// WEIGHT40: "grid": [
// WEIGHT40-NEXT: {{[0-9]+}},
// WEIGHT40-NEXT: 2,
// WEIGHT40: "path": "swap_ab"
// SIBLING: "tensor_maps": [
// SIBLING-COUNT-3: "dtype": "f8e4m3fn"
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e5m2.e4m3
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e5m2
// PTX-DAG: cvt.rn.f16x2.e4m3x2
// PTX-DAG: cvt.rn.f16x2.e5m2x2
// PTX-DAG: cvt.rn.satfinite.e4m3x2.f32
// PTX-DAG: cvt.rn.satfinite.e5m2x2.f32
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: cpu fp8 matrix: 81 passed, 0 failed
// CHECK-NOT: FAIL
