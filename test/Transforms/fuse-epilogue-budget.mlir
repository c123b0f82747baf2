// RUN: sol-opt %s --split-input-file "--sol-fuse=remarks=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: sol-opt %s --split-input-file --sol-fuse 2>/dev/null | FileCheck %s

// A matmul epilogue weighs its ops by their FLOPs per element, as the
// kernel budget does, against max-epilogue-ops (16): the generators unroll
// the epilogue over every accumulator element a thread holds (192 on a
// ping-pong 128x192 tile), and ptxas -O3 took 1.4 s on one silu there,
// 6.8 s on two, 22.4 s on three; a compile of the eight a fuzzed input
// chained ran past 100 s (sol-fuzz, 2026-12-03, the 2-core build machine
// shared with another build; counted as ops, sixteen fitted). Three silus (15) fit; the
// fourth stays outside (a lone op, which sol-form-kernels wraps).
// REMARK-LABEL: remark: fused into epilogue of sol.matmul
// REMARK: remark: not fused into epilogue of sol.matmul: the epilogue already weighs 15 and this op 5 (max-epilogue-ops=16, ops weighed by their FLOPs per element)
//      CHECK-LABEL: func.func @silu_chain
//            CHECK:   %[[K:.*]] = sol.kernel @silu_chain_matmul_0
//            CHECK:     sol.matmul
// CHECK-COUNT-3:        sol.silu
//       CHECK-NEXT:     sol.yield
//            CHECK:   sol.silu %[[K]] :
module attributes {sol.target = #sol.target<"h200">} {
  func.func @silu_chain(%x: tensor<256x256xf16>, %w: tensor<512x256xf16>) -> tensor<256x512xf16> {
    %m = sol.matmul %x, %w transpose_b : tensor<256x256xf16>, tensor<512x256xf16> -> tensor<256x512xf16>
    %s0 = sol.silu %m : tensor<256x512xf16>
    %s1 = sol.silu %s0 : tensor<256x512xf16>
    %s2 = sol.silu %s1 : tensor<256x512xf16>
    %s3 = sol.silu %s2 : tensor<256x512xf16>
    return %s3 : tensor<256x512xf16>
  }
}

// -----

// Bias, tanh GELU (9) and a residual weigh 11: the whole MLP epilogue
// stays in the matmul's kernel.
// CHECK-LABEL: func.func @bias_gelu_residual
//       CHECK:   sol.kernel @bias_gelu_residual_matmul_0
//       CHECK:     sol.matmul
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.gelu
//  CHECK-NEXT:     sol.add
//  CHECK-NEXT:     sol.yield
//   CHECK-NOT:   sol.kernel
module attributes {sol.target = #sol.target<"h200">} {
  func.func @bias_gelu_residual(%x: tensor<256x256xf16>, %w: tensor<512x256xf16>, %b: tensor<512xf16>, %r: tensor<256x512xf16>) -> tensor<256x512xf16> {
    %m = sol.matmul %x, %w transpose_b : tensor<256x256xf16>, tensor<512x256xf16> -> tensor<256x512xf16>
    %a = sol.add %m, %b : tensor<256x512xf16>, tensor<512xf16> -> tensor<256x512xf16>
    %g = sol.gelu tanh %a : tensor<256x512xf16>
    %s = sol.add %g, %r : tensor<256x512xf16>, tensor<256x512xf16> -> tensor<256x512xf16>
    return %s : tensor<256x512xf16>
  }
}
