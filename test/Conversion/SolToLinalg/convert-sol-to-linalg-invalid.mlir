// RUN: sol-opt %s --split-input-file --convert-sol-to-linalg -verify-diagnostics

// Two matmuls need two tile loops; fusion never puts them in one kernel.
func.func @two_matmuls(%x: tensor<4x8xf16>, %w: tensor<8x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{cannot lower sol.kernel @two_matmuls_matmul_0: the kernel's two matmuls are not siblings: the matmuls read different left operands}}
  %k = sol.kernel @two_matmuls_matmul_0 ins(%x, %w : tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16> {
  ^bb0(%a: tensor<4x8xf16>, %b: tensor<8x8xf16>):
    %m = sol.matmul %a, %b : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
    %n = sol.matmul %m, %b : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
    sol.yield %n : tensor<4x8xf16>
  }
  return %k : tensor<4x8xf16>
}

// -----

// The epilogue iterates over one output shape.
func.func @outputs_of_different_shapes(%x: tensor<4x8xf16>, %b: tensor<8xf16>) -> (tensor<4x8xf16>, tensor<8xf16>) {
  // expected-error @+1 {{kernel outputs of different shapes (4x8 and 8) cannot share one epilogue iteration space}}
  %k:2 = sol.kernel @outputs_of_different_shapes_add_0 ins(%x, %b : tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>, tensor<8xf16> {
  ^bb0(%a: tensor<4x8xf16>, %c: tensor<8xf16>):
    %e = sol.exp %c : tensor<8xf16>
    %s = sol.add %a, %e : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
    sol.yield %s, %e : tensor<4x8xf16>, tensor<8xf16>
  }
  return %k#0, %k#1 : tensor<4x8xf16>, tensor<8xf16>
}

// -----

// The kernel's function takes the kernel's name: it must be free.
func.func @taken() {
  return
}
func.func @name_clash(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{cannot outline sol.kernel @taken: the module already has a symbol of that name}}
  %k = sol.kernel @taken ins(%x : tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    %e = sol.exp %a : tensor<8xf32>
    sol.yield %e : tensor<8xf32>
  }
  return %k : tensor<8xf32>
}

// -----

// The contraction reads kernel inputs only: no prologue before the matmul.
func.func @prologue(%x: tensor<4x8xf16>, %w: tensor<8x8xf16>) -> tensor<4x8xf16> {
  %k = sol.kernel @prologue_exp_0 ins(%x, %w : tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16> {
  ^bb0(%a: tensor<4x8xf16>, %b: tensor<8x8xf16>):
    %e = sol.exp %a : tensor<4x8xf16>
    // expected-error @+1 {{the operands of a kernel's sol.matmul must be kernel inputs: the canonical form has no prologue (fusion never forms one)}}
    %m = sol.matmul %e, %b : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
    sol.yield %m : tensor<4x8xf16>
  }
  return %k : tensor<4x8xf16>
}

// -----

// A kernel's name becomes its PTX entry: LLVM aborts on anything but an
// identifier ("Symbol name with unsupported characters"), so a hand-written
// one is refused here (kernels sol forms get sanitised names).
func.func @unsafe_name(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{cannot lower sol.kernel @"a b": its name holds ' '; a kernel name must match [A-Za-z_][A-Za-z0-9_]*}}
  %k = sol.kernel @"a b" ins(%x : tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %n = sol.neg %a : tensor<8xf16>
    sol.yield %n : tensor<8xf16>
  }
  return %k : tensor<8xf16>
}

// -----

// A block-wise scale is read per K block by the contraction, so it must be a
// kernel input, not a value the kernel computes.
func.func @computed_block_scale(%x: tensor<7x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>, %sw: tensor<2x3xf32>) -> tensor<7x200xf32> {
  %0 = sol.kernel @k_computed_block_scale ins(%x, %w, %sw : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN>, tensor<2x3xf32>) -> tensor<7x200xf32> {
  ^bb0(%a: tensor<7x300xf8E4M3FN>, %b: tensor<200x300xf8E4M3FN>, %sb: tensor<2x3xf32>):
    %s2 = sol.mul %sb, %sb : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
    // expected-error @+1 {{a block-wise scale of a kernel's sol.matmul must be a kernel input (it is read per K block, not by the epilogue)}}
    %m = sol.matmul %a, %b transpose_b scale_b(%s2 : tensor<2x3xf32>) : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xf32>
    sol.yield %m : tensor<7x200xf32>
  }
  return %0 : tensor<7x200xf32>
}
