module attributes {sol.target = #sol.target<"l40s">} {
func.func @g(%x: tensor<4x256xf8E4M3FN>, %w: tensor<200x256xf8E4M3FN>, %s: tensor<200xf32>) -> tensor<4x200xbf16> {
  %y = sol.matmul %x, %w transpose_b scale_b(%s : tensor<200xf32>) : tensor<4x256xf8E4M3FN>, tensor<200x256xf8E4M3FN> -> tensor<4x200xbf16>
  return %y : tensor<4x200xbf16>
}
func.func @wo(%x: tensor<24x256xbf16>, %w: tensor<200x256xf8E4M3FN>, %s: tensor<200xf32>) -> tensor<24x200xbf16> {
  %y = sol.matmul %x, %w transpose_b scale_b(%s : tensor<200xf32>) : tensor<24x256xbf16>, tensor<200x256xf8E4M3FN> -> tensor<24x200xbf16>
  return %y : tensor<24x200xbf16>
}
}
