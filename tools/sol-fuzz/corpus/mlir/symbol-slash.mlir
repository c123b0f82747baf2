// sol-fuzz corpus: a function named "/" (LLVM ERROR: Symbol name with unsupported characters).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @"/"(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
    %c = sol.add %a, %b : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf16>
    return %c : tensor<64x64xf16>
  }
}
