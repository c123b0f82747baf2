// The named pipeline the main job runs, on the seed examples: each workload
// becomes one fused kernel carrying its cost, and the report totals them.
// RUN: sol-opt %sol_src_root/examples/oproj_residual.mlir --sol-annotate | FileCheck %s --check-prefix=PREFILL
// RUN: sol-opt %sol_src_root/examples/oproj_residual_decode.mlir --sol-annotate | FileCheck %s --check-prefix=DECODE
// RUN: sol-opt %sol_src_root/examples/mlp_up_gelu.mlir --sol-annotate | FileCheck %s --check-prefix=MLP
// RUN: sol-opt %sol_src_root/examples/swiglu_residual.mlir --sol-annotate | FileCheck %s --check-prefix=SWIGLU
// RUN: sol-opt %sol_src_root/examples/oproj_residual.mlir --sol-annotate=report=table -o /dev/null | FileCheck %s --check-prefix=TABLE

// PREFILL: sol.cost_summary = #sol.cost_summary<kernels = 1, unknown_kernels = 0, t_ideal_us = 108.57, {{.*}}, bytes = 138936320, unfused_bytes = 222822400, saved_bytes = 83886080>
// PREFILL: sol.kernel @oproj_residual_matmul_0 ins(%arg0, %arg1, %arg2 :
// PREFILL-SAME: cost = #sol.cost<bound = compute, tc_flops = 107374182400,
// PREFILL: sol.matmul
// PREFILL-NEXT: sol.add
// PREFILL-NEXT: sol.yield
// PREFILL-NOT: sol.kernel

// DECODE: sol.kernel @oproj_residual_decode_matmul_0
// DECODE-SAME: cost = #sol.cost<bound = latency, {{.*}}, t_ideal_us = 2.73{{[0-9]*}},
// DECODE-NOT: sol.kernel

// MLP: sol.kernel @mlp_up_gelu_matmul_0 ins(%arg0, %arg1, %arg2 : tensor<8192x2560xf16>, tensor<10240x2560xf16>, tensor<10240xf16>)
// MLP-SAME: cost = #sol.cost<bound = compute,
// MLP: sol.matmul
// MLP-NEXT: sol.add
// MLP-NEXT: sol.gelu tanh
// MLP-NEXT: sol.yield
// MLP-NOT: sol.kernel

// SWIGLU: sol.kernel @swiglu_residual_silu_0
// SWIGLU-SAME: cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 469762048, bytes = 536870912,
// SWIGLU: sol.silu
// SWIGLU-NEXT: sol.mul
// SWIGLU-NEXT: sol.add
// SWIGLU-NEXT: sol.yield
// SWIGLU-NOT: sol.kernel

// TABLE: oproj_residual_matmul_0 {{.*}} compute
// TABLE: traffic: 138.9 MB fused, 222.8 MB unfused, 83.9 MB saved by fusion
