// sol-fuzz corpus: a matmul with M = 0 (SIGFPE in estimateCost).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @m_zero(%a: tensor<0x40xbf16>, %b: tensor<77x40xbf16>, %r: tensor<0x77xbf16>) -> tensor<0x77xbf16> {
    %m = sol.matmul %a, %b transpose_b : tensor<0x40xbf16>, tensor<77x40xbf16> -> tensor<0x77xbf16>
    %y = sol.add %m, %r : tensor<0x77xbf16>, tensor<0x77xbf16> -> tensor<0x77xbf16>
    return %y : tensor<0x77xbf16>
  }
}
