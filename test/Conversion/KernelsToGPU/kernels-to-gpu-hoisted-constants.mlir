// RUN: sol-opt %s --split-input-file --canonicalize --convert-sol-kernels-to-gpu | FileCheck %s

// Input already in the linalg form goes through sol-annotate's canonicalizer
// in sol-to-ptx, which hoists the epilogue body's constants into the
// function (a generic is not isolated from above). The generators clone the
// body alone, so the constants are cloned back in: the generated code reads
// its own constant, not the erased function's (a sol-fuzz finding, which
// crashed the verifier on the dangling operand).
// CHECK-LABEL: gpu.module @hoisted_constant_is_cloned_back
//       CHECK:   gpu.func @hoisted_constant_is_cloned_back
//       CHECK:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//       CHECK:     arith.addf %{{.*}}, %[[ONE]] : f32
//   CHECK-NOT:   func.func
module attributes {sol.target = #sol.target<"h200">} {
func.func @hoisted_constant_is_cloned_back(%x: tensor<8xf16>, %o: tensor<8xf16>) -> tensor<8xf16> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf16>) outs(%o : tensor<8xf16>) {
  ^bb0(%a: f16, %b: f16):
    %e = arith.extf %a : f16 to f32
    %one = arith.constant 1.0 : f32
    %s = arith.addf %one, %e : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8xf16>
  return %0 : tensor<8xf16>
}
}
