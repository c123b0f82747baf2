// The CPU build's conversion to fp8 (sol.cast's clamp, then
// sol-expand-fp8-conversions' rounding) on every value that can round
// wrong, both kinds: a C driver (Inputs/cpu-fp8-encode-driver.c) calls each
// kernel with each code's value, every midpoint of two neighbouring codes
// and the f32 values either side of it, values past the largest code,
// infinities, f32 subnormals, zeros and NaN, then a million random f32 bit
// patterns, and compares each code with its own brute-force rounding
// (nearest, ties to the even code, saturating, NaN kept, the sign of zero
// kept).
//
// RUN: env SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/build-cpu-kernels.sh %s %t > /dev/null
// RUN: cc -O2 -std=c11 %S/Inputs/cpu-fp8-encode-driver.c -o %t/driver -ldl -lm
// RUN: %t/driver %t/kernels.so | FileCheck %s
// CHECK: seed {{[0-9]+}}
// CHECK: e4m3_cast_0: {{[0-9]+}} values, mismatches 0
// CHECK: e5m2_cast_0: {{[0-9]+}} values, mismatches 0

func.func @e4m3(%x: tensor<4096xf32>) -> tensor<4096xf8E4M3FN> {
  %0 = sol.cast %x : tensor<4096xf32> to tensor<4096xf8E4M3FN>
  return %0 : tensor<4096xf8E4M3FN>
}

func.func @e5m2(%x: tensor<4096xf32>) -> tensor<4096xf8E5M2> {
  %0 = sol.cast %x : tensor<4096xf32> to tensor<4096xf8E5M2>
  return %0 : tensor<4096xf8E5M2>
}
