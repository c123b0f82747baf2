// Dynamic M to PTX and cubins (docs/dynamic-shapes.md): the seed o_proj +
// residual, MLP up + GELU, the SwiGLU gate/up pair and elementwise chains
// with `?` token counts, through the whole sol-to-ptx, with each generator
// path forced in turn; every row of every plan table becomes a kernel
// `<kernel>__m<min>_<max>` that ptxas assembles (sol-write-binaries fails on
// a ptxas error) and whose last parameter is the i64 value of M; every
// manifest row names PTX that was written. The hand-written linalg kernels
// of test/Conversion/KernelsToGPU/kernels-to-gpu-dynamic.mlir (a row per
// path, split-K and a 3-D A among them) go through the GPU half of the
// pipeline alone. Correctness on a GPU is the runtime's test (sol-run).
//
// The ABI prefix checks that every PTX file's last entry parameter is a u64
// (the dim); the FILES prefix that every manifest row's PTX and cubin exist.
// RUN: rm -rf %t && split-file %s %t
//
// Default plans (sol-tile's choice per range):
// RUN: sol-opt %t/oproj.mlir --sol-to-ptx=out-dir=%t/default -o /dev/null 2> /dev/null
// RUN: sol-opt %t/mlp.mlir --sol-to-ptx=out-dir=%t/default -o /dev/null 2> /dev/null
// RUN: sol-opt %t/swiglu.mlir --sol-to-ptx=out-dir=%t/default -o /dev/null 2> /dev/null
// RUN: sol-opt %t/ew.mlir --sol-to-ptx=out-dir=%t/default -o /dev/null 2> /dev/null
// RUN: sol-opt %t/decode.mlir --sol-to-ptx=out-dir=%t/default -o /dev/null 2> /dev/null
// RUN: sol-opt %t/f32.mlir --sol-to-ptx=out-dir=%t/default -o /dev/null 2> /dev/null
// RUN: ls %t/default | FileCheck %s --check-prefix=DEFAULT
// RUN: sh -c 'for f in %t/default/*.ptx; do if grep -B1 "^)$" $f | head -1 | grep -q "\.param \.u64 [a-z0-9_]*__m[0-9]*_[0-9]*_param_[0-9]*$"; then echo OK; else echo "BAD $f"; fi; done' | sort | uniq | FileCheck %s --check-prefix=ABI
// RUN: sh -c 'cd %t/default && for p in $(grep -ho "\"ptx\": \"[^\"]*\"" *.json | sed "s/.*: \"//;s/\"$//"); do test -f $p && test -f ${p%%.ptx}.cubin && echo HAVE || echo "MISSING $p"; done' | sort | uniq | FileCheck %s --check-prefix=FILES
//
// Each path forced: mma_sync (split K where it pays), wgmma (cp.async),
// wgmma_tma cooperative in 2-block clusters, ping-pong, 256-row tiles,
// gemv (a decode range), simt (f32).
// RUN: sol-opt %t/oproj.mlir --sol-to-ptx="out-dir=%t/mma paths=mma_sync" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/mlp.mlir --sol-to-ptx="out-dir=%t/mma paths=mma_sync" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/ew.mlir --sol-to-ptx="out-dir=%t/mma paths=mma_sync" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/oproj.mlir --sol-to-ptx="out-dir=%t/wgmma paths=wgmma" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/mlp.mlir --sol-to-ptx="out-dir=%t/wgmma paths=wgmma" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/oproj.mlir --sol-to-ptx="out-dir=%t/cluster paths=wgmma_tma schedules=cooperative min-cluster=2 max-cluster=2" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/mlp.mlir --sol-to-ptx="out-dir=%t/cluster paths=wgmma_tma schedules=cooperative min-cluster=2 max-cluster=2" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/oproj.mlir --sol-to-ptx="out-dir=%t/pingpong paths=wgmma_tma schedules=pingpong" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/mlp.mlir --sol-to-ptx="out-dir=%t/pingpong paths=wgmma_tma schedules=pingpong" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/swiglu.mlir --sol-to-ptx="out-dir=%t/pingpong paths=wgmma_tma schedules=pingpong" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/oproj.mlir --sol-to-ptx="out-dir=%t/tall paths=wgmma_tma tiles=256x128" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/mlp.mlir --sol-to-ptx="out-dir=%t/tall paths=wgmma_tma tiles=256x128" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/decode.mlir --sol-to-ptx="out-dir=%t/gemv paths=gemv" -o /dev/null 2> /dev/null
// RUN: sol-opt %t/f32.mlir --sol-to-ptx="out-dir=%t/simt paths=simt" -o /dev/null 2> /dev/null
// RUN: cat %t/mma/*.json %t/wgmma/*.json %t/cluster/*.json %t/pingpong/*.json %t/tall/*.json %t/gemv/*.json %t/simt/*.json | tr -d ' \n' | FileCheck %s --check-prefix=PATHS
// RUN: sh -c 'for f in %t/mma/*.ptx %t/wgmma/*.ptx %t/cluster/*.ptx %t/pingpong/*.ptx %t/tall/*.ptx %t/gemv/*.ptx %t/simt/*.ptx; do if grep -B1 "^)$" $f | head -1 | grep -q "\.param \.u64 [a-z0-9_]*__m[0-9]*_[0-9]*_param_[0-9]*$"; then echo OK; else echo "BAD $f"; fi; done' | sort | uniq | FileCheck %s --check-prefix=ABI
// RUN: sh -c 'for d in mma wgmma cluster pingpong tall gemv simt; do cd %t/$d && for p in $(grep -ho "\"ptx\": \"[^\"]*\"" *.json | sed "s/.*: \"//;s/\"$//"); do test -f $p && test -f ${p%%.ptx}.cubin && echo HAVE || echo "MISSING $d/$p"; done; done' | sort | uniq | FileCheck %s --check-prefix=FILES
//
// The correctness matrix's cases with a dynamic M (gen-matrix.py --dynamic,
// the cpu profile's shapes), every kernel of it:
// RUN: python3 %sol_src_root/scripts/gen-matrix.py --profile=cpu --dynamic %t/matrix.mlir | FileCheck %s --check-prefix=GENDYN
// RUN: sol-opt %t/matrix.mlir --sol-to-ptx=out-dir=%t/matrix -o /dev/null 2> /dev/null
// RUN: sh -c 'for f in %t/matrix/*.ptx; do if grep -B1 "^)$" $f | head -1 | grep -q "\.param \.u64 [a-z0-9_]*__m[0-9]*_[0-9]*_param_[0-9]*$"; then echo OK; else echo "BAD $f"; fi; done' | sort | uniq | FileCheck %s --check-prefix=ABI
// RUN: sh -c 'cd %t/matrix && for p in $(grep -ho "\"ptx\": \"[^\"]*\"" *.json | sed "s/.*: \"//;s/\"$//"); do test -f $p && test -f ${p%%.ptx}.cubin && echo HAVE || echo "MISSING $p"; done' | sort | uniq | FileCheck %s --check-prefix=FILES
//
// The hand-written linalg kernels, through the GPU half of sol-to-ptx:
// RUN: sol-opt %t/linalg.mlir --split-input-file --pass-pipeline='builtin.module(convert-sol-kernels-to-gpu,canonicalize,cse,sol-attach-nvvm-target,convert-nvgpu-to-nvvm,convert-scf-to-cf,convert-nvvm-to-llvm,expand-strided-metadata,lower-affine,convert-arith-to-llvm,convert-index-to-llvm,canonicalize,cse,gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},canonicalize,cse,reconcile-unrealized-casts),gpu.module(sol-tensor-map-params),gpu-module-to-binary{format=isa toolkit=/usr/local/cuda},sol-write-binaries{dir=%t/linalg})' -o /dev/null
// RUN: ls %t/linalg | FileCheck %s --check-prefix=LINALG
// RUN: sh -c 'for f in %t/linalg/*.ptx; do if grep -B1 "^)$" $f | head -1 | grep -q "\.param \.u64 [a-z0-9_]*__m[0-9]*_[0-9]*_param_[0-9]*$"; then echo OK; else echo "BAD $f"; fi; done' | sort | uniq | FileCheck %s --check-prefix=ABI

// DEFAULT-DAG: {{^}}oproj_residual_matmul_0__m1_{{[0-9]+}}.cubin
// DEFAULT-DAG: {{^}}mlp_up_gelu_matmul_0__m1_{{[0-9]+}}.cubin
// DEFAULT-DAG: {{^}}swiglu_{{.*}}__m128_{{[0-9]+}}.cubin
// DEFAULT-DAG: {{^}}ew_bias_relu_{{.*}}__m1_{{[0-9]+}}.cubin
// DEFAULT-DAG: {{^}}ew_1d_{{.*}}__m1_{{[0-9]+}}.cubin
// DEFAULT-DAG: {{^}}decode_{{.*}}__m1_{{[0-9]+}}.cubin
// DEFAULT-DAG: {{^}}f32_exp_matmul_0__m1_{{[0-9]+}}.cubin

// GENDYN: 153 cases in

// ABI-NOT: BAD
// ABI: OK
// ABI-NOT: BAD

// FILES-NOT: MISSING
// FILES: HAVE
// FILES-NOT: MISSING

// PATHS-DAG: "path":"mma_sync"
// PATHS-DAG: "split_k":4
// PATHS-DAG: "path":"wgmma"
// PATHS-DAG: "cluster":2
// PATHS-DAG: "schedule":"pingpong"
// PATHS-DAG: "tile":[256,128,64]
// PATHS-DAG: "path":"gemv"
// PATHS-DAG: "path":"simt"

// LINALG-DAG: ew_bias_relu_add_0__m1_65536.cubin
// LINALG-DAG: ew_1d_mul_0__m8_8192.cubin
// LINALG-DAG: simt_exp_matmul_0__m1_4097.cubin
// LINALG-DAG: gemv_residual_matmul_0__m1_16.cubin
// LINALG-DAG: mma_rows_matmul_0__m17_129.cubin
// LINALG-DAG: mma_rows_matmul_0__m130_4097.cubin
// LINALG-DAG: splitk_decode_matmul_0__m1_16.cubin
// LINALG-DAG: prefill_3d_matmul_0__m1_16.cubin
// LINALG-DAG: wgmma_gelu_matmul_0__m1_8192.cubin
// LINALG-DAG: tma_cluster_matmul_0__m1_8192.cubin
// LINALG-DAG: tma_pingpong_matmul_0__m1_8192.cubin
// LINALG-DAG: tma_tall_matmul_0__m1_8192.cubin
// LINALG-DAG: swiglu_matmul_0__m1_8192.cubin

//--- oproj.mlir
// The seed o_proj + residual, any token count up to 8192.
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 8192, hints = [1, 16, 4096]>} {
  func.func @oproj_residual(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> {
    %p = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    %o = sol.add %p, %r : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
    return %o : tensor<?x2560xf16>
  }
}

//--- mlp.mlir
// MLP up + bias + GELU (tanh).
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 8192, hints = [16, 4096]>} {
  func.func @mlp_up_gelu(%x: tensor<?x2560xf16>, %w: tensor<10240x2560xf16>, %b: tensor<10240xf16>) -> tensor<?x10240xf16> {
    %h = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<10240x2560xf16> -> tensor<?x10240xf16>
    %hb = sol.add %h, %b : tensor<?x10240xf16>, tensor<10240xf16> -> tensor<?x10240xf16>
    %g = sol.gelu tanh %hb : tensor<?x10240xf16>
    return %g : tensor<?x10240xf16>
  }
}

//--- swiglu.mlir
// SwiGLU's gate and up over one x, from 128 tokens (the sibling pair's
// generator takes 128-row tiles).
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 128, max = 8192, hints = [4096]>} {
  func.func @swiglu(%x: tensor<?x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<?x6912xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %u = sol.matmul %x, %wu transpose_b : tensor<?x2560xf16>, tensor<6912x2560xf16> -> tensor<?x6912xf16>
    %s = sol.silu %g : tensor<?x6912xf16>
    %p = sol.mul %s, %u : tensor<?x6912xf16>, tensor<?x6912xf16> -> tensor<?x6912xf16>
    return %p : tensor<?x6912xf16>
  }
}

//--- ew.mlir
// Elementwise: a bias broadcast along the dynamic dim, a 1-D chain (its
// innermost dim the dynamic one) and a 3-D chain with a per-row scale.
module attributes {sol.target = #sol.target<"h200">} {
  func.func @ew_bias_relu(%x: tensor<?x2560xf16>, %b: tensor<2560xf16>) -> tensor<?x2560xf16> {
    %s = sol.add %x, %b : tensor<?x2560xf16>, tensor<2560xf16> -> tensor<?x2560xf16>
    %r = sol.relu %s : tensor<?x2560xf16>
    return %r : tensor<?x2560xf16>
  }
  func.func @ew_1d(%x: tensor<?xf16>, %y: tensor<?xf16>) -> tensor<?xf16> {
    %m = sol.mul %x, %y : tensor<?xf16>, tensor<?xf16> -> tensor<?xf16>
    %t = sol.tanh %m : tensor<?xf16>
    return %t : tensor<?xf16>
  }
  func.func @ew_scale_3d(%x: tensor<?x4x256xbf16>, %s: tensor<?x4x1xbf16>) -> tensor<?x4x256xbf16> {
    %m = sol.mul %x, %s : tensor<?x4x256xbf16>, tensor<?x4x1xbf16> -> tensor<?x4x256xbf16>
    %e = sol.exp %m : tensor<?x4x256xbf16>
    return %e : tensor<?x4x256xbf16>
  }
}

//--- decode.mlir
// A decode range (1 to 16 tokens): the gemv path's rows are the row's m_max.
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 16, hints = [1, 4]>} {
  func.func @decode(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> {
    %p = sol.matmul %x, %w transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
    %o = sol.add %p, %r : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
    return %o : tensor<?x2560xf16>
  }
}

//--- f32.mlir
// f32 operands take the SIMT path.
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 4097>} {
  func.func @f32_exp(%x: tensor<?x33xf32>, %w: tensor<77x33xf32>) -> tensor<?x77xf32> {
    %m = sol.matmul %x, %w transpose_b : tensor<?x33xf32>, tensor<77x33xf32> -> tensor<?x77xf32>
    %e = sol.exp %m : tensor<?x77xf32>
    return %e : tensor<?x77xf32>
  }
}

//--- linalg.mlir
#map = affine_map<(d0) -> (d0)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @ew_1d_mul_0(%arg0: tensor<?xf16>, %arg1: tensor<?xf16>, %arg2: tensor<?xf16>) -> tensor<?xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 8, m_max = 8192, plan = #sol.plan<path = elementwise, tile = [2048], warps = [1, 1], stages = 1, split_k = 1>>]} {
    %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<?xf16>, tensor<?xf16>) outs(%arg2 : tensor<?xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %1 = arith.extf %in : f16 to f32
      %2 = arith.extf %in_0 : f16 to f32
      %3 = arith.mulf %1, %2 : f32
      %4 = arith.truncf %3 : f32 to f16
      linalg.yield %4 : f16
    } -> tensor<?xf16>
    return %0 : tensor<?xf16>
  }
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @ew_bias_relu_add_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560xf16>, %arg2: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 65536, plan = #sol.plan<path = elementwise, tile = [2048], warps = [1, 1], stages = 1, split_k = 1>>]} {
    %0 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560xf16>) outs(%arg2 : tensor<?x2560xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %1 = arith.extf %in : f16 to f32
      %2 = arith.extf %in_0 : f16 to f32
      %3 = arith.addf %1, %2 : f32
      %cst = arith.constant 0.000000e+00 : f32
      %4 = arith.maximumf %3, %cst : f32
      %5 = arith.truncf %4 : f32 to f16
      linalg.yield %5 : f16
    } -> tensor<?x2560xf16>
    return %0 : tensor<?x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @simt_exp_matmul_0(%arg0: tensor<?x33xf32>, %arg1: tensor<77x33xf32>, %arg2: tensor<?x77xf32>) -> tensor<?x77xf32> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 4097, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x33xf32>
    %0 = tensor.empty(%dim) : tensor<?x77xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x77xf32>) -> tensor<?x77xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x33xf32>, tensor<77x33xf32>) outs(%1 : tensor<?x77xf32>) -> tensor<?x77xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x77xf32>) outs(%arg2 : tensor<?x77xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = math.exp %in : f32
      linalg.yield %4 : f32
    } -> tensor<?x77xf32>
    return %3 : tensor<?x77xf32>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @gemv_residual_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = gemv, tile = [16, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @mma_rows_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 17, m_max = 129, plan = #sol.plan<path = mma_sync, tile = [32, 64, 64], warps = [1, 4], stages = 4, split_k = 1>>, #sol.plan_entry<m_min = 130, m_max = 4097, plan = #sol.plan<path = mma_sync, tile = [64, 128, 32], warps = [2, 2], stages = 3, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @splitk_decode_matmul_0(%arg0: tensor<?x1x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x1x2560xf16>, %arg3: tensor<?x1x2560xf16>) -> tensor<?x1x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = mma_sync, tile = [16, 64, 64], warps = [1, 4], stages = 4, split_k = 4>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x1x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x1x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x1x2560xf32>) -> tensor<?x1x2560xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<?x1x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x1x2560xf32>) {
    ^bb0(%in: f16, %in_0: f16, %out: f32):
      %4 = arith.extf %in : f16 to f32
      %5 = arith.extf %in_0 : f16 to f32
      %6 = arith.mulf %4, %5 : f32
      %7 = arith.addf %out, %6 : f32
      linalg.yield %7 : f32
    } -> tensor<?x1x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<?x1x2560xf32>, tensor<?x1x2560xf16>) outs(%arg3 : tensor<?x1x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x1x2560xf16>
    return %3 : tensor<?x1x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @prefill_3d_matmul_0(%arg0: tensor<?x512x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x512x2560xf16>, %arg3: tensor<?x512x2560xf16>) -> tensor<?x512x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = mma_sync, tile = [64, 64, 32], warps = [2, 2], stages = 4, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x512x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x512x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x512x2560xf32>) -> tensor<?x512x2560xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<?x512x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x512x2560xf32>) {
    ^bb0(%in: f16, %in_0: f16, %out: f32):
      %4 = arith.extf %in : f16 to f32
      %5 = arith.extf %in_0 : f16 to f32
      %6 = arith.mulf %4, %5 : f32
      %7 = arith.addf %out, %6 : f32
      linalg.yield %7 : f32
    } -> tensor<?x512x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<?x512x2560xf32>, tensor<?x512x2560xf16>) outs(%arg3 : tensor<?x512x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x512x2560xf16>
    return %3 : tensor<?x512x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @wgmma_gelu_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<10240x2560xf16>, %arg2: tensor<10240xf16>, %arg3: tensor<?x10240xf16>) -> tensor<?x10240xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x10240xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x10240xf32>) -> tensor<?x10240xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<10240x2560xf16>) outs(%1 : tensor<?x10240xf32>) -> tensor<?x10240xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x10240xf32>, tensor<10240xf16>) outs(%arg3 : tensor<?x10240xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.mulf %5, %5 : f32
      %7 = arith.mulf %6, %5 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %8 = arith.mulf %cst_1, %7 : f32
      %9 = arith.addf %5, %8 : f32
      %cst_2 = arith.constant 0.797884583 : f32
      %10 = arith.mulf %cst_2, %9 : f32
      %11 = math.tanh %10 : f32
      %cst_3 = arith.constant 5.000000e-01 : f32
      %12 = arith.mulf %cst_3, %5 : f32
      %cst_4 = arith.constant 1.000000e+00 : f32
      %13 = arith.addf %cst_4, %11 : f32
      %14 = arith.mulf %12, %13 : f32
      %15 = arith.truncf %14 : f32 to f16
      linalg.yield %15 : f16
    } -> tensor<?x10240xf16>
    return %3 : tensor<?x10240xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @tma_cluster_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1, cluster = 2>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @tma_pingpong_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @tma_tall_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [256, 128, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @swiglu_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<6912x2560xf16>, %arg2: tensor<6912x2560xf16>, %arg3: tensor<?x6912xf16>) -> tensor<?x6912xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x6912xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<6912x2560xf16>) outs(%1 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %3 = tensor.empty(%dim) : tensor<?x6912xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %5 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg2 : tensor<?x2560xf16>, tensor<6912x2560xf16>) outs(%4 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %6 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %5 : tensor<?x6912xf32>, tensor<?x6912xf32>) outs(%arg3 : tensor<?x6912xf16>) {
    ^bb0(%in: f32, %in_1: f32, %out: f16):
      %7 = arith.negf %in : f32
      %8 = math.exp %7 : f32
      %cst_2 = arith.constant 1.000000e+00 : f32
      %9 = arith.addf %cst_2, %8 : f32
      %10 = arith.divf %in, %9 : f32
      %11 = arith.mulf %10, %in_1 : f32
      %12 = arith.truncf %11 : f32 to f16
      linalg.yield %12 : f16
    } -> tensor<?x6912xf16>
    return %6 : tensor<?x6912xf16>
  }
}