// RUN: sol-opt %s --split-input-file --sol-fuse | FileCheck %s --check-prefix=DEFAULT
// RUN: sol-opt %s --split-input-file --sol-fuse=fuse-epilogues=false | FileCheck %s --check-prefix=NOEPI
// RUN: sol-opt %s --split-input-file --sol-fuse=fuse-elementwise=false | FileCheck %s --check-prefix=NOEW
// RUN: sol-opt %s --split-input-file --sol-fuse=max-epilogue-ops=1 | FileCheck %s --check-prefix=MAX1
// RUN: sol-opt %s --split-input-file --sol-fuse=force=never | FileCheck %s --check-prefix=NEVER
// RUN: sol-opt %s --split-input-file --sol-fuse=force=always | FileCheck %s --check-prefix=ALWAYS
// RUN: sol-opt %s --split-input-file --sol-fuse=fuse-siblings=false | FileCheck %s --check-prefix=NOSIB

// Each option set, one prefix each, on the same three graphs.

// MLP-like epilogue: bias, GELU, residual.
//    DEFAULT-LABEL: func.func @epilogue_chain
//          DEFAULT:   sol.kernel @epilogue_chain_matmul_0
//          DEFAULT:     sol.matmul
//     DEFAULT-NEXT:     sol.add
//     DEFAULT-NEXT:     sol.gelu
//     DEFAULT-NEXT:     sol.add
//     DEFAULT-NEXT:     sol.yield
//      DEFAULT-NOT:   sol.kernel

// Without epilogues the matmul stays a lone op; its consumers still form
// one elementwise kernel, which reads the matmul's result.
//      NOEPI-LABEL: func.func @epilogue_chain
//            NOEPI:   %[[MM:.*]] = sol.matmul
//       NOEPI-NEXT:   sol.kernel @epilogue_chain_add_0 ins(%[[MM]], %{{[^,]*}}, %{{[^,]*}} :
//       NOEPI-NEXT:   ^bb0
//       NOEPI-NEXT:     sol.add
//       NOEPI-NEXT:     sol.gelu
//       NOEPI-NEXT:     sol.add
//       NOEPI-NEXT:     sol.yield

//       NOEW-LABEL: func.func @epilogue_chain
//             NOEW:   sol.kernel @epilogue_chain_matmul_0
//             NOEW:     sol.matmul
//        NOEW-NEXT:     sol.add
//        NOEW-NEXT:     sol.gelu
//        NOEW-NEXT:     sol.add
//        NOEW-NEXT:     sol.yield

// One epilogue op: the bias joins the matmul; the rest of the chain forms an
// elementwise kernel of its own.
//       MAX1-LABEL: func.func @epilogue_chain
//             MAX1:   %[[K:.*]] = sol.kernel @epilogue_chain_matmul_0
//             MAX1:     sol.matmul
//        MAX1-NEXT:     sol.add
//        MAX1-NEXT:     sol.yield
//             MAX1:   sol.kernel @epilogue_chain_gelu_1 ins(%[[K]], %{{[^,]*}} :
//             MAX1:     sol.gelu
//        MAX1-NEXT:     sol.add
//        MAX1-NEXT:     sol.yield

// force=never: one kernel per op.
//      NEVER-LABEL: func.func @epilogue_chain
//            NEVER:   sol.kernel @epilogue_chain_matmul_0
//       NEVER-NEXT:   ^bb0
//       NEVER-NEXT:     sol.matmul
//       NEVER-NEXT:     sol.yield
//            NEVER:   sol.kernel @epilogue_chain_add_1
//            NEVER:   sol.kernel @epilogue_chain_gelu_2
//            NEVER:   sol.kernel @epilogue_chain_add_3
//       NEVER-NEXT:   ^bb0
//       NEVER-NEXT:     sol.add
//       NEVER-NEXT:     sol.yield

//     ALWAYS-LABEL: func.func @epilogue_chain
//           ALWAYS:   sol.kernel @epilogue_chain_matmul_0
//           ALWAYS:     sol.matmul
//      ALWAYS-NEXT:     sol.add
//      ALWAYS-NEXT:     sol.gelu
//      ALWAYS-NEXT:     sol.add
//      ALWAYS-NEXT:     sol.yield
module attributes {sol.target = #sol.target<"h200">} {
  func.func @epilogue_chain(%x: tensor<8192x2560xf16>, %w: tensor<10240x2560xf16>, %b: tensor<10240xf16>, %r: tensor<8192x10240xf16>) -> tensor<8192x10240xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<8192x2560xf16>, tensor<10240x2560xf16> -> tensor<8192x10240xf16>
    %z = sol.add %y, %b : tensor<8192x10240xf16>, tensor<10240xf16> -> tensor<8192x10240xf16>
    %g = sol.gelu tanh %z : tensor<8192x10240xf16>
    %o = sol.add %g, %r : tensor<8192x10240xf16>, tensor<8192x10240xf16> -> tensor<8192x10240xf16>
    return %o : tensor<8192x10240xf16>
  }
}

// -----

// SwiGLU + residual.
//    DEFAULT-LABEL: func.func @elementwise_chain
//          DEFAULT:   sol.kernel @elementwise_chain_silu_0
//          DEFAULT:     sol.silu
//     DEFAULT-NEXT:     sol.mul
//     DEFAULT-NEXT:     sol.add

//      NOEPI-LABEL: func.func @elementwise_chain
//            NOEPI:   sol.kernel @elementwise_chain_silu_0

// Without elementwise fusion the three ops stay plain.
//       NOEW-LABEL: func.func @elementwise_chain
//         NOEW-NOT:   sol.kernel
//             NOEW:   sol.silu
//        NOEW-NEXT:   sol.mul
//        NOEW-NEXT:   sol.add

// The epilogue budget does not limit elementwise kernels.
//       MAX1-LABEL: func.func @elementwise_chain
//             MAX1:   sol.kernel @elementwise_chain_silu_0
//             MAX1:     sol.silu
//        MAX1-NEXT:     sol.mul
//        MAX1-NEXT:     sol.add

//      NEVER-LABEL: func.func @elementwise_chain
//            NEVER:   sol.kernel @elementwise_chain_silu_0
//            NEVER:   sol.kernel @elementwise_chain_mul_1
//            NEVER:   sol.kernel @elementwise_chain_add_2

//     ALWAYS-LABEL: func.func @elementwise_chain
//           ALWAYS:   sol.kernel @elementwise_chain_silu_0
//           ALWAYS:     sol.silu
//      ALWAYS-NEXT:     sol.mul
//      ALWAYS-NEXT:     sol.add
module attributes {sol.target = #sol.target<"h200">} {
  func.func @elementwise_chain(%g: tensor<8192x8192xf16>, %u: tensor<8192x8192xf16>, %r: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
    %s = sol.silu %g : tensor<8192x8192xf16>
    %p = sol.mul %s, %u : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    %o = sol.add %p, %r : tensor<8192x8192xf16>, tensor<8192x8192xf16> -> tensor<8192x8192xf16>
    return %o : tensor<8192x8192xf16>
  }
}

// -----

// SwiGLU's gate and up projections: one kernel by default (siblings), two
// with fuse-siblings=false.
// DEFAULT-LABEL: func.func @sibling_matmuls
//       DEFAULT:   sol.kernel @sibling_matmuls_matmul_0
//       DEFAULT:     sol.matmul
//  DEFAULT-NEXT:     sol.silu
//  DEFAULT-NEXT:     sol.matmul
//  DEFAULT-NEXT:     sol.mul
//   DEFAULT-NOT:   sol.matmul
// NOSIB-LABEL: func.func @sibling_matmuls
//       NOSIB:   %[[UP:.*]] = sol.matmul
//       NOSIB:   sol.kernel @sibling_matmuls_matmul_0 ins(%{{[^,]*}}, %{{[^,]*}}, %[[UP]] :
//       NOSIB:     sol.matmul
//  NOSIB-NEXT:     sol.silu
module attributes {sol.target = #sol.target<"h200">} {
  func.func @sibling_matmuls(%x: tensor<2048x2560xf16>, %wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>) -> tensor<2048x6912xf16> {
    %g = sol.matmul %x, %wg transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    %s = sol.silu %g : tensor<2048x6912xf16>
    %u = sol.matmul %x, %wu transpose_b : tensor<2048x2560xf16>, tensor<6912x2560xf16> -> tensor<2048x6912xf16>
    %p = sol.mul %s, %u : tensor<2048x6912xf16>, tensor<2048x6912xf16> -> tensor<2048x6912xf16>
    return %p : tensor<2048x6912xf16>
  }
}
