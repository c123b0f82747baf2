// sol-fuzz corpus: the b200 preset (sm_100a): LLVM ERROR 'PTX version ... does not support target'.
module attributes {sol.target = #sol.target<"b200">} {
  func.func @silu(%a: tensor<64x64xf16>) -> tensor<64x64xf16> {
    %v = sol.silu %a : tensor<64x64xf16>
    return %v : tensor<64x64xf16>
  }
}
