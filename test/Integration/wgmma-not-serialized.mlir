// ptxas serialises a kernel's wgmma when it cannot prove the code around them
// warp-uniform (info C7520, "wgmma.mma_async instructions are serialized"):
// the ping-pong kernel then ran at 0.6 of the cooperative one's rate on the
// H200 (2026-11-30, bench/NOTES.md section 16), although it was correct.
// The large workloads, every wgmma_tma schedule and ping-pong width, through
// ptxas -v: none may be serialised.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sol-opt %sol_src_root/bench/workloads/mlp_up_gelu_fp16.mlir --sol-to-ptx="out-dir=%t/pp paths=wgmma_tma schedules=pingpong" -o /dev/null
// RUN: sol-opt %sol_src_root/bench/workloads/oproj_prefill_bf16.mlir --sol-to-ptx="out-dir=%t/pp2 paths=wgmma_tma schedules=pingpong max-cluster=2" -o /dev/null
// RUN: sol-opt %sol_src_root/bench/workloads/oproj_prefill_fp16.mlir --sol-to-ptx="out-dir=%t/coop paths=wgmma_tma schedules=cooperative" -o /dev/null
// RUN: sol-opt %sol_src_root/bench/workloads/mlp_up_gelu_fp16.mlir --sol-to-ptx="out-dir=%t/pp144 paths=wgmma_tma schedules=pingpong tiles=128x144" -o /dev/null
// RUN: sol-opt %sol_src_root/bench/workloads/mlp_up_gelu_bf16.mlir --sol-to-ptx="out-dir=%t/pp160 paths=wgmma_tma schedules=pingpong tiles=128x160" -o /dev/null
// RUN: sol-opt %sol_src_root/bench/workloads/mlp_up_gelu_fp16.mlir --sol-to-ptx="out-dir=%t/pp192 paths=wgmma_tma schedules=pingpong tiles=128x192" -o /dev/null
// Cooperative 256-row tiles (two m64 accumulators per consumer):
// RUN: sol-opt %sol_src_root/bench/workloads/oproj_prefill_fp16.mlir --sol-to-ptx="out-dir=%t/tall128 paths=wgmma_tma tiles=256x128" -o /dev/null
// RUN: sol-opt %sol_src_root/bench/workloads/mlp_up_gelu_bf16.mlir --sol-to-ptx="out-dir=%t/tall192 paths=wgmma_tma tiles=256x192" -o /dev/null
// RUN: sol-opt %sol_src_root/examples/swiglu_mlp.mlir --sol-to-ptx="out-dir=%t/tall160 paths=wgmma_tma tiles=256x160" -o /dev/null
// The SwiGLU MLP: gate and up as sibling matmuls, each width, and the down
// projection under the same tile.
// RUN: sol-opt %sol_src_root/examples/swiglu_mlp.mlir --sol-to-ptx="out-dir=%t/sib128 paths=wgmma_tma schedules=pingpong tiles=128x128" -o /dev/null
// RUN: sol-opt %sol_src_root/examples/swiglu_mlp.mlir --sol-to-ptx="out-dir=%t/sib144 paths=wgmma_tma tiles=128x144" -o /dev/null
// RUN: sol-opt %sol_src_root/examples/swiglu_mlp.mlir --sol-to-ptx="out-dir=%t/sib160 paths=wgmma_tma tiles=128x160" -o /dev/null
// RUN: sol-opt %sol_src_root/examples/swiglu_mlp.mlir --sol-to-ptx="out-dir=%t/sib192 paths=wgmma_tma tiles=128x192" -o /dev/null
// RUN: sol-opt %sol_src_root/examples/swiglu_mlp.mlir --sol-to-ptx="out-dir=%t/sib256 paths=wgmma_tma tiles=128x256" -o /dev/null
// RUN: sh -c 'for f in %t/*/*.ptx; do "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" -arch=sm_90a -v "$f" -o /dev/null; done' 2>&1 | FileCheck %s --implicit-check-not=C7520
//
// CHECK-COUNT-20: Used {{[0-9]+}} registers
