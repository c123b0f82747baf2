// Input of sol-to-ptx-chips.mlir: fp8 matmuls on each path that takes them
// on Ada (mma_sync at 40 rows, gemv at 4, weight-only swap_ab at 24), and
// an f16 one.
module attributes {sol.target = #sol.target<"l40s">} {
  func.func @qmm(%x: tensor<40x256xf8E4M3FN>, %w: tensor<200x256xf8E4M3FN>, %s: tensor<200xf32>) -> tensor<40x200xbf16> {
    %y = sol.matmul %x, %w transpose_b scale_b(%s : tensor<200xf32>) : tensor<40x256xf8E4M3FN>, tensor<200x256xf8E4M3FN> -> tensor<40x200xbf16>
    return %y : tensor<40x200xbf16>
  }
  func.func @mm(%x: tensor<40x256xf16>, %w: tensor<200x256xf16>) -> tensor<40x200xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<40x256xf16>, tensor<200x256xf16> -> tensor<40x200xf16>
    return %y : tensor<40x200xf16>
  }
  func.func @gemv(%x: tensor<4x256xf8E4M3FN>, %w: tensor<200x256xf8E4M3FN>, %s: tensor<200xf32>) -> tensor<4x200xbf16> {
    %y = sol.matmul %x, %w transpose_b scale_b(%s : tensor<200xf32>) : tensor<4x256xf8E4M3FN>, tensor<200x256xf8E4M3FN> -> tensor<4x200xbf16>
    return %y : tensor<4x200xbf16>
  }
  func.func @wo(%x: tensor<24x256xbf16>, %w: tensor<200x256xf8E4M3FN>, %s: tensor<200xf32>) -> tensor<24x200xbf16> {
    %y = sol.matmul %x, %w transpose_b scale_b(%s : tensor<200xf32>) : tensor<24x256xbf16>, tensor<200x256xf8E4M3FN> -> tensor<24x200xbf16>
    return %y : tensor<24x200xbf16>
  }
}
