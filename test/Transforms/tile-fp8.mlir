// RUN: sol-opt %s --split-input-file --sol-tile -verify-diagnostics
// RUN: rm -rf %t.d && not sol-opt %s --split-input-file --sol-to-ptx=out-dir=%t.d 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not sol-opt %s --split-input-file --convert-sol-to-linalg 2>&1 | FileCheck %s --check-prefix=LINALG

// No generator emits fp8 yet (docs/fp8.md): an fp8 kernel is valid IR with a
// cost, and code generation refuses it at the kernel, with the reason,
// instead of picking a path that would read fp8 as another float (the SIMT
// fallback, or gemv, whose 128-bit loads fit 16 fp8 elements). The whole
// pipeline stops there too, and so does the linalg lowering, which would
// otherwise drop the scales.

// PTX: error: sol-tile: cannot plan kernel @fp8_oproj: no kernel path takes fp8 operands yet: the kernel's sol.matmul reads f8E4M3FN x f8E4M3FN operands; sol has their IR, verifiers and cost, not their code generation (docs/fp8.md)
// LINALG: error: cannot lower sol.kernel @fp8_oproj: no kernel path takes fp8 operands yet: the kernel's sol.matmul reads f8E4M3FN x f8E4M3FN operands
module attributes {sol.target = #sol.target<"h200">} {
func.func @prefill(%x: tensor<256x2560xf8E4M3FN>, %w: tensor<2560x2560xf8E4M3FN>, %sx: tensor<256x1xf32>, %sw: tensor<2560xf32>) -> tensor<256x2560xbf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @fp8_oproj: no kernel path takes fp8 operands yet: the kernel's sol.matmul reads f8E4M3FN x f8E4M3FN operands; sol has their IR, verifiers and cost, not their code generation (docs/fp8.md)}}
  %0 = sol.kernel @fp8_oproj ins(%x, %w, %sx, %sw : tensor<256x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN>, tensor<256x1xf32>, tensor<2560xf32>) -> tensor<256x2560xbf16> {
  ^bb0(%a: tensor<256x2560xf8E4M3FN>, %b: tensor<2560x2560xf8E4M3FN>, %sa: tensor<256x1xf32>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<256x1xf32>) scale_b(%sb : tensor<2560xf32>)
        : tensor<256x2560xf8E4M3FN>, tensor<2560x2560xf8E4M3FN> -> tensor<256x2560xbf16>
    sol.yield %m : tensor<256x2560xbf16>
  }
  return %0 : tensor<256x2560xbf16>
}
}

// -----

// Decode (gemv's shape: one row, an [N, K] weight, K a multiple of 16),
// e5m2 x e4m3.
module attributes {sol.target = #sol.target<"h200">} {
func.func @decode(%x: tensor<1x2560xf8E5M2>, %w: tensor<2560x2560xf8E4M3FN>, %sw: tensor<2560xf32>) -> tensor<1x2560xf16> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @k: no kernel path takes fp8 operands yet: the kernel's sol.matmul reads f8E5M2 x f8E4M3FN operands}}
  %0 = sol.kernel @k ins(%x, %w, %sw : tensor<1x2560xf8E5M2>, tensor<2560x2560xf8E4M3FN>, tensor<2560xf32>) -> tensor<1x2560xf16> {
  ^bb0(%a: tensor<1x2560xf8E5M2>, %b: tensor<2560x2560xf8E4M3FN>, %sb: tensor<2560xf32>):
    %m = sol.matmul %a, %b transpose_b scale_b(%sb : tensor<2560xf32>)
        : tensor<1x2560xf8E5M2>, tensor<2560x2560xf8E4M3FN> -> tensor<1x2560xf16>
    sol.yield %m : tensor<1x2560xf16>
  }
  return %0 : tensor<1x2560xf16>
}
}

// -----

// A lone fp8 matmul, which sol-to-ptx wraps into a kernel itself (sol-tile
// alone plans kernels only).
// PTX: error: sol-tile: cannot plan kernel @lone_matmul_0: no kernel path takes fp8 operands yet: the kernel's sol.matmul reads f8E4M3FN x f8E5M2 operands
module attributes {sol.target = #sol.target<"h200">} {
func.func @lone(%x: tensor<7x48xf8E4M3FN>, %w: tensor<24x48xf8E5M2>, %sx: tensor<7x1xf32>) -> tensor<7x24xf32> {
  %0 = sol.matmul %x, %w transpose_b scale_a(%sx : tensor<7x1xf32>)
      : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E5M2> -> tensor<7x24xf32>
  return %0 : tensor<7x24xf32>
}
}

// -----

// Dynamic M: the plan table's every row would need an fp8 path.
module attributes {sol.target = #sol.target<"h200">} {
func.func @dynamic(%x: tensor<?x128xf8E4M3FN>, %w: tensor<256x128xf8E4M3FN>, %sx: tensor<?x1xf32>) -> tensor<?x256xf16> {
  // expected-error @+1 {{no kernel path takes fp8 operands yet: the kernel's sol.matmul reads f8E4M3FN x f8E4M3FN operands}}
  %0 = sol.kernel @dyn ins(%x, %w, %sx : tensor<?x128xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<?x1xf32>) -> tensor<?x256xf16> {
  ^bb0(%a: tensor<?x128xf8E4M3FN>, %b: tensor<256x128xf8E4M3FN>, %sa: tensor<?x1xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<?x1xf32>)
        : tensor<?x128xf8E4M3FN>, tensor<256x128xf8E4M3FN> -> tensor<?x256xf16>
    sol.yield %m : tensor<?x256xf16>
  }
  return %0 : tensor<?x256xf16>
}
}

// -----

// Quantising (a cast to fp8, saturating) is no generator's either, nor on
// A100 (no fp8 at all: the cost model's no-bound annotation,
// cost-fp8.mlir).
// PTX: error: sol-tile: cannot plan kernel @quantise: no kernel path takes fp8 operands yet: the kernel's sol.cast converts to or from fp8, which no generator emits with sol.cast's saturation yet (docs/fp8.md)
module attributes {sol.target = #sol.target<"a100-80gb">} {
func.func @quantise(%h: tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
  // expected-error @+1 {{sol-tile: cannot plan kernel @quantise: no kernel path takes fp8 operands yet: the kernel's sol.cast converts to or from fp8, which no generator emits with sol.cast's saturation yet (docs/fp8.md)}}
  %0 = sol.kernel @quantise ins(%h : tensor<9x16xf16>) -> tensor<9x16xf8E4M3FN> {
  ^bb0(%a: tensor<9x16xf16>):
    %q = sol.cast %a : tensor<9x16xf16> to tensor<9x16xf8E4M3FN>
    sol.yield %q : tensor<9x16xf8E4M3FN>
  }
  return %0 : tensor<9x16xf8E4M3FN>
}
}
