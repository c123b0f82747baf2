// sol-fuzz corpus: a formed kernel with batch 0 (SIGFPE in estimateCost).
module attributes {sol.target = #sol.target<"h200">} {
  func.func @batch_zero(%x: tensor<0x7x64xbf16>, %w: tensor<0x64x40xbf16>) -> tensor<0x7x40xbf16> {
    %0 = sol.kernel @k ins(%x, %w : tensor<0x7x64xbf16>, tensor<0x64x40xbf16>) -> tensor<0x7x40xbf16> {
    ^bb0(%a: tensor<0x7x64xbf16>, %b: tensor<0x64x40xbf16>):
      %m = sol.matmul %a, %b : tensor<0x7x64xbf16>, tensor<0x64x40xbf16> -> tensor<0x7x40xbf16>
      sol.yield %m : tensor<0x7x40xbf16>
    }
    return %0 : tensor<0x7x40xbf16>
  }
}
