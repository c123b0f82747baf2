// Builds this module's dynamic kernels into ONE shared library with the CPU
// script and runs every kernel from a C driver (Inputs/cpu-dynamic-driver.c)
// at many token counts M, each call passing M through the trailing
// `const int64_t *dim` of the CPU ABI (docs/dynamic-shapes.md, section 4).
// The driver draws fresh random inputs (the seed is printed; SOL_SEED
// replays one), compares each output with its own float64 reference within
// one ulp of the output type, and checks that nothing past row M is written.
// The static kernel shares the library with its unchanged ABI.
//
// RUN: env SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/build-cpu-kernels.sh %s %t > /dev/null
// RUN: cc -O2 -std=c11 %S/Inputs/cpu-dynamic-driver.c -o %t/driver -ldl -lm
// RUN: %t/driver %t/kernels.so | FileCheck %s

// CHECK: seed {{[0-9]+}}
// CHECK-DAG: oproj_residual: M=0,1,2,7,16,17,64,127,129,1000 ok
// CHECK-DAG: mlp_gelu_scale: M=0,1,2,7,16,17,64,127,129,1000 ok
// CHECK-DAG: swiglu_pair: M=0,1,2,7,16,17,64,127,129,1000 ok
// CHECK-DAG: elementwise_chain: M=0,1,2,7,16,17,64,127,129,1000 ok
// CHECK-DAG: batched_oproj: M=0,1,2,7,16,17,64,127,129,1000 ok
// CHECK-DAG: static_neg: ok
// CHECK: all passed

// x[M,64] @ W[64,64]^T + r[M,64]: the o_proj with its residual.
func.func @oproj(%x: tensor<?x64xf16>, %w: tensor<64x64xf16>, %r: tensor<?x64xf16>) -> tensor<?x64xf16> {
  %k = sol.kernel @oproj_residual ins(%x, %w, %r : tensor<?x64xf16>, tensor<64x64xf16>, tensor<?x64xf16>) -> tensor<?x64xf16> {
  ^bb0(%a: tensor<?x64xf16>, %b: tensor<64x64xf16>, %c: tensor<?x64xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
    %s = sol.add %m, %c : tensor<?x64xf16>, tensor<?x64xf16> -> tensor<?x64xf16>
    sol.yield %s : tensor<?x64xf16>
  }
  return %k : tensor<?x64xf16>
}

// gelu_tanh(x @ W + bias[N]) * scale[M,1]: both broadcasts.
func.func @mlp(%x: tensor<?x64xf16>, %w: tensor<64x64xf16>, %bias: tensor<64xf16>, %scale: tensor<?x1xf16>) -> tensor<?x64xf16> {
  %k = sol.kernel @mlp_gelu_scale ins(%x, %w, %bias, %scale : tensor<?x64xf16>, tensor<64x64xf16>, tensor<64xf16>, tensor<?x1xf16>) -> tensor<?x64xf16> {
  ^bb0(%a: tensor<?x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64xf16>, %d: tensor<?x1xf16>):
    %m = sol.matmul %a, %b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
    %s = sol.add %m, %c : tensor<?x64xf16>, tensor<64xf16> -> tensor<?x64xf16>
    %g = sol.gelu tanh %s : tensor<?x64xf16>
    %o = sol.mul %g, %d : tensor<?x64xf16>, tensor<?x1xf16> -> tensor<?x64xf16>
    sol.yield %o : tensor<?x64xf16>
  }
  return %k : tensor<?x64xf16>
}

// silu(x @ Wg^T) * (x @ Wu^T): a sibling pair over one A.
func.func @swiglu(%x: tensor<?x64xf16>, %wg: tensor<64x64xf16>, %wu: tensor<64x64xf16>) -> tensor<?x64xf16> {
  %k = sol.kernel @swiglu_pair ins(%x, %wg, %wu : tensor<?x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<?x64xf16> {
  ^bb0(%a: tensor<?x64xf16>, %g: tensor<64x64xf16>, %u: tensor<64x64xf16>):
    %mg = sol.matmul %a, %g transpose_b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
    %mu = sol.matmul %a, %u transpose_b : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
    %s = sol.silu %mg : tensor<?x64xf16>
    %o = sol.mul %s, %mu : tensor<?x64xf16>, tensor<?x64xf16> -> tensor<?x64xf16>
    sol.yield %o : tensor<?x64xf16>
  }
  return %k : tensor<?x64xf16>
}

// A rank-3 bf16 chain with a static broadcast and two outputs:
// z = sigmoid(x + b[16]) * y, t = tanh(z) - exp(-y).
func.func @chain(%x: tensor<?x4x16xbf16>, %b: tensor<16xbf16>, %y: tensor<?x4x16xbf16>) -> (tensor<?x4x16xbf16>, tensor<?x4x16xbf16>) {
  %k:2 = sol.kernel @elementwise_chain ins(%x, %b, %y : tensor<?x4x16xbf16>, tensor<16xbf16>, tensor<?x4x16xbf16>) -> tensor<?x4x16xbf16>, tensor<?x4x16xbf16> {
  ^bb0(%a: tensor<?x4x16xbf16>, %c: tensor<16xbf16>, %d: tensor<?x4x16xbf16>):
    %s = sol.add %a, %c : tensor<?x4x16xbf16>, tensor<16xbf16> -> tensor<?x4x16xbf16>
    %g = sol.sigmoid %s : tensor<?x4x16xbf16>
    %z = sol.mul %g, %d : tensor<?x4x16xbf16>, tensor<?x4x16xbf16> -> tensor<?x4x16xbf16>
    %h = sol.tanh %z : tensor<?x4x16xbf16>
    %n = sol.neg %d : tensor<?x4x16xbf16>
    %e = sol.exp %n : tensor<?x4x16xbf16>
    %t = sol.sub %h, %e : tensor<?x4x16xbf16>, tensor<?x4x16xbf16> -> tensor<?x4x16xbf16>
    sol.yield %z, %t : tensor<?x4x16xbf16>, tensor<?x4x16xbf16>
  }
  return %k#0, %k#1 : tensor<?x4x16xbf16>, tensor<?x4x16xbf16>
}

// A rank-3 A whose dynamic dim is a batch: the contraction is a
// linalg.generic over (b, m, n, k), x[M,3,64] @ W[64,64]^T + r[M,3,64].
func.func @batched(%x: tensor<?x3x64xf16>, %w: tensor<64x64xf16>, %r: tensor<?x3x64xf16>) -> tensor<?x3x64xf16> {
  %k = sol.kernel @batched_oproj ins(%x, %w, %r : tensor<?x3x64xf16>, tensor<64x64xf16>, tensor<?x3x64xf16>) -> tensor<?x3x64xf16> {
  ^bb0(%a: tensor<?x3x64xf16>, %b: tensor<64x64xf16>, %c: tensor<?x3x64xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x3x64xf16>, tensor<64x64xf16> -> tensor<?x3x64xf16>
    %s = sol.add %m, %c : tensor<?x3x64xf16>, tensor<?x3x64xf16> -> tensor<?x3x64xf16>
    sol.yield %s : tensor<?x3x64xf16>
  }
  return %k : tensor<?x3x64xf16>
}

// A static kernel in the same library keeps `void name(void *in, void *out)`.
func.func @static(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %k = sol.kernel @static_neg ins(%x : tensor<4x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%a: tensor<4x16xf32>):
    %n = sol.neg %a : tensor<4x16xf32>
    sol.yield %n : tensor<4x16xf32>
  }
  return %k : tensor<4x16xf32>
}
