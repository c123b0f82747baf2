// sol-fuzz corpus: a function name with '/' and '..' (kernel file names under out-dir).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @"a/../b"(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
    %c = sol.add %a, %b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
    return %c : tensor<64x64xf16>
  }
}
