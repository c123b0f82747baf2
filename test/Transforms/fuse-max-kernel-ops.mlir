// A kernel weighs at most max-kernel-ops (default 256), each op weighed by
// its FLOPs per element (at least 1): ptxas took 83 s on one kernel of
// 2 000 elementwise ops, so a longer chain is split, each kernel reading the
// previous one's output, and a remark says where, with or without
// remarks=true. The chains come from Inputs/elementwise-chain.py (exp, tanh,
// mul by the input, repeated: each weighs 1; or tanh-GELUs, 9 each).

// 600 ops: kernels of 256, 256 and 88 ops; a remark at each split.
// RUN: %python %S/Inputs/elementwise-chain.py 600 > %t.600.mlir
// RUN: sol-opt %t.600.mlir --sol-fuse 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT
// RUN: sol-opt %t.600.mlir --sol-fuse 2>/dev/null | FileCheck %s --check-prefix=KERNELS

// SPLIT: .600.mlir:259:13: remark: not fused into elementwise kernel of sol.exp: the kernel already weighs 256 and this op 1 (max-kernel-ops=256, ops weighed by their FLOPs per element); the chain goes on in another kernel
// SPLIT: .600.mlir:515:13: remark: not fused into elementwise kernel of sol.tanh: the kernel already weighs 256 and this op 1 (max-kernel-ops=256, ops weighed by their FLOPs per element); the chain goes on in another kernel
// SPLIT-NOT: remark

// KERNELS-LABEL: func.func @chain
//       KERNELS:   %[[K0:.*]] = sol.kernel @chain_exp_0 ins(%arg0 :
//  KERNELS-NEXT:   ^bb0
// KERNELS-COUNT-256:     sol.{{exp|tanh|mul}}
//  KERNELS-NEXT:     sol.yield
//       KERNELS:   %[[K1:.*]] = sol.kernel @chain_tanh_1 ins(%[[K0]], %arg0 :
//  KERNELS-NEXT:   ^bb0
// KERNELS-COUNT-256:     sol.{{exp|tanh|mul}}
//  KERNELS-NEXT:     sol.yield
//       KERNELS:   %[[K2:.*]] = sol.kernel @chain_mul_2 ins(%[[K1]], %arg0 :
//  KERNELS-NEXT:   ^bb0
// KERNELS-COUNT-88:     sol.{{exp|tanh|mul}}
//  KERNELS-NEXT:     sol.yield
//       KERNELS:   return %[[K2]]

// 60 tanh-GELUs, 9 each: kernels of 28 (252), 28 and 4 GELUs. Counted as
// one op each, 256 GELUs made one kernel that took ~40 s to compile.
// RUN: %python %S/Inputs/elementwise-chain.py 60 gelu > %t.gelu.mlir
// RUN: sol-opt %t.gelu.mlir --sol-fuse 2>&1 >/dev/null | FileCheck %s --check-prefix=GELU-SPLIT
// RUN: sol-opt %t.gelu.mlir --sol-fuse 2>/dev/null | FileCheck %s --check-prefix=GELU

// GELU-SPLIT: .gelu.mlir:31:12: remark: not fused into elementwise kernel of sol.gelu: the kernel already weighs 252 and this op 9 (max-kernel-ops=256, ops weighed by their FLOPs per element); the chain goes on in another kernel
// GELU-SPLIT: .gelu.mlir:59:12: remark: not fused into elementwise kernel of sol.gelu: the kernel already weighs 252 and this op 9
// GELU-SPLIT-NOT: remark

// GELU-LABEL: func.func @chain
//       GELU:   sol.kernel @chain_gelu_0 ins(%arg0 :
//  GELU-NEXT:   ^bb0
// GELU-COUNT-28:     sol.gelu tanh
//  GELU-NEXT:     sol.yield
//       GELU:   sol.kernel @chain_gelu_1 ins(
//  GELU-NEXT:   ^bb0
// GELU-COUNT-28:     sol.gelu tanh
//  GELU-NEXT:     sol.yield
//       GELU:   sol.kernel @chain_gelu_2 ins(
//  GELU-NEXT:   ^bb0
// GELU-COUNT-4:     sol.gelu tanh
//  GELU-NEXT:     sol.yield

// max-kernel-ops=0 lifts the cap: one kernel, no remark.
// RUN: sol-opt %t.600.mlir --sol-fuse=max-kernel-ops=0 2>&1 | FileCheck %s --check-prefix=NOCAP
//   NOCAP-NOT: remark
//       NOCAP: sol.kernel @chain_exp_0
//   NOCAP-NOT: sol.kernel

// 20 000 ops (the fuzzer's chain; fusion was quadratic in it): the whole
// annotate pipeline completes, in 79 kernels.
// RUN: %python %S/Inputs/elementwise-chain.py 20000 > %t.20000.mlir
// RUN: sol-opt %t.20000.mlir --sol-annotate 2>/dev/null | FileCheck %s --check-prefix=LONG
// LONG: sol.kernel @chain_exp_0 ins
// LONG: sol.kernel @chain_exp_78 ins
// LONG-NOT: sol.kernel @
