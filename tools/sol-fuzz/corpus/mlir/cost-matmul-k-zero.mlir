// sol-fuzz corpus: a matmul with K = 0 (NaN in the JSON cost report, manifest and C API).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @k_zero(%a: tensor<16x0xf16>, %b: tensor<32x0xf16>) -> tensor<16x32xf16> {
    %c = sol.matmul %a, %b transpose_b : tensor<16x0xf16>, tensor<32x0xf16> -> tensor<16x32xf16>
    return %c : tensor<16x32xf16>
  }
}
