// sol-fuzz corpus: dims of INT64_MAX (overflow in work and traffic counts).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @huge(%a: tensor<9223372036854775807x8xf16>, %b: tensor<9223372036854775807x8xf16>) -> tensor<9223372036854775807x8xf16> {
    %c = sol.add %a, %b : tensor<9223372036854775807x8xf16>, tensor<9223372036854775807x8xf16> -> tensor<9223372036854775807x8xf16>
    return %c : tensor<9223372036854775807x8xf16>
  }
}
