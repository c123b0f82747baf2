// A kernel holds at most max-kernel-ops ops (default 256): ptxas took 83 s
// on one kernel of 2 000 elementwise ops, so a longer chain is split, each kernel reading the previous one's output, and a
// remark says where, with or without remarks=true. The chains come from
// Inputs/elementwise-chain.py (exp, tanh, mul by the input, repeated).

// 600 ops: kernels of 256, 256 and 88 ops; a remark at each split.
// RUN: %python %S/Inputs/elementwise-chain.py 600 > %t.600.mlir
// RUN: sol-opt %t.600.mlir --sol-fuse 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT
// RUN: sol-opt %t.600.mlir --sol-fuse 2>/dev/null | FileCheck %s --check-prefix=KERNELS

// SPLIT: .600.mlir:259:13: remark: not fused into elementwise kernel of sol.exp: the kernel already holds 256 op(s) (max-kernel-ops=256); the chain goes on in another kernel
// SPLIT: .600.mlir:515:13: remark: not fused into elementwise kernel of sol.tanh: the kernel already holds 256 op(s) (max-kernel-ops=256); the chain goes on in another kernel
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
