// Input of sol-to-ptx-chips.mlir: an fp8 and an f16 matmul on Ada.
module attributes {sol.target = #sol.target<"l40s">} {
  func.func @qmm(%x: tensor<40x256xf8E4M3FN>, %w: tensor<200x256xf8E4M3FN>, %s: tensor<200xf32>) -> tensor<40x200xbf16> {
    %y = sol.matmul %x, %w transpose_b scale_b(%s : tensor<200xf32>) : tensor<40x256xf8E4M3FN>, tensor<200x256xf8E4M3FN> -> tensor<40x200xbf16>
    return %y : tensor<40x200xbf16>
  }
  func.func @mm(%x: tensor<40x256xf16>, %w: tensor<200x256xf16>) -> tensor<40x200xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<40x256xf16>, tensor<200x256xf16> -> tensor<40x200xf16>
    return %y : tensor<40x200xf16>
  }
}
