// RUN: sol-opt %s --split-input-file --convert-sol-to-linalg | FileCheck %s

// An fp8 matmul's contraction reads the fp8 codes into the f32 accumulator
// (the GPU generator replaces it by wgmma; the CPU build decodes the codes,
// sol-expand-fp8-conversions). Its scales are epilogue inputs, per token (A's rows,
// [M, 1]: column 0) and per channel ([N]: the output column), and multiply
// the accumulator before anything else reads it (docs/fp8.md, "Scales").
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[COLS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @fp8_scaled(
//       CHECK:   %[[ACC:.*]] = linalg.matmul {{.*}} ins(%arg0, %arg1 : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E5M2>) outs(%{{.*}} : tensor<7x24xf32>)
//       CHECK:   linalg.generic {indexing_maps = [#{{.*}}, #[[ROWS]], #[[COLS]], #{{.*}}, #{{.*}}], {{.*}} ins(%[[ACC]], %arg2, %arg3, %arg4 : tensor<7x24xf32>, tensor<7x1xf32>, tensor<24xf32>, tensor<7x24xbf16>)
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: f32, %[[SA:.*]]: f32, %[[SB:.*]]: f32, %[[R:.*]]: bf16, %{{.*}}: bf16):
//  CHECK-NEXT:     %[[RES:.*]] = arith.extf %[[R]] : bf16 to f32
//  CHECK-NEXT:     %[[X:.*]] = arith.mulf %[[A]], %[[SA]] : f32
//  CHECK-NEXT:     %[[Y:.*]] = arith.mulf %[[X]], %[[SB]] : f32
//  CHECK-NEXT:     arith.addf %[[Y]], %[[RES]] : f32
func.func @scaled(%x: tensor<7x48xf8E4M3FN>, %w: tensor<24x48xf8E5M2>, %sx: tensor<7x1xf32>, %sw: tensor<24xf32>, %r: tensor<7x24xbf16>) -> tensor<7x24xbf16> {
  %0 = sol.kernel @fp8_scaled ins(%x, %w, %sx, %sw, %r : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E5M2>, tensor<7x1xf32>, tensor<24xf32>, tensor<7x24xbf16>) -> tensor<7x24xbf16> {
  ^bb0(%a: tensor<7x48xf8E4M3FN>, %b: tensor<24x48xf8E5M2>, %sa: tensor<7x1xf32>, %sb: tensor<24xf32>, %res: tensor<7x24xbf16>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<7x1xf32>) scale_b(%sb : tensor<24xf32>) : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E5M2> -> tensor<7x24xbf16>
    %y = sol.add %m, %res : tensor<7x24xbf16>, tensor<7x24xbf16> -> tensor<7x24xbf16>
    sol.yield %y : tensor<7x24xbf16>
  }
  return %0 : tensor<7x24xbf16>
}

// -----

// One per-tensor scale that is also read by the epilogue (a kernel input
// reaches the epilogue once) and a missing scale_b (1).
// CHECK-LABEL: func.func @fp8_shared_scale(
//       CHECK:   linalg.generic {{.*}} ins(%{{.*}}, %arg2 : tensor<5x16xf32>, tensor<f32>)
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
//  CHECK-NEXT:     %[[X:.*]] = arith.mulf %[[A]], %[[S]] : f32
//  CHECK-NEXT:     arith.addf %[[X]], %[[S]] : f32
func.func @shared(%x: tensor<5x32xf8E4M3FN>, %w: tensor<16x32xf8E4M3FN>, %s: tensor<f32>) -> tensor<5x16xf32> {
  %0 = sol.kernel @fp8_shared_scale ins(%x, %w, %s : tensor<5x32xf8E4M3FN>, tensor<16x32xf8E4M3FN>, tensor<f32>) -> tensor<5x16xf32> {
  ^bb0(%a: tensor<5x32xf8E4M3FN>, %b: tensor<16x32xf8E4M3FN>, %sa: tensor<f32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<f32>) : tensor<5x32xf8E4M3FN>, tensor<16x32xf8E4M3FN> -> tensor<5x16xf32>
    %y = sol.add %m, %sa : tensor<5x16xf32>, tensor<f32> -> tensor<5x16xf32>
    sol.yield %y : tensor<5x16xf32>
  }
  return %0 : tensor<5x16xf32>
}

// -----

// An fp8 result: the scaled accumulator over scale_out, clamped to e4m3's
// largest finite value (448: sol.cast's saturation; maximumf and minimumf
// keep NaN) and rounded by truncf, yielded as the code.
// CHECK-LABEL: func.func @fp8_result(
//       CHECK:   linalg.generic {{.*}} ins(%{{.*}}, %arg2, %arg3 : tensor<7x24xf32>, tensor<f32>, tensor<f32>) outs(%{{.*}} : tensor<7x24xf8E4M3FN>)
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: f32, %[[SA:.*]]: f32, %[[SO:.*]]: f32, %{{.*}}: f8E4M3FN):
//  CHECK-NEXT:     %[[X:.*]] = arith.mulf %[[A]], %[[SA]] : f32
//  CHECK-NEXT:     %[[Q:.*]] = arith.divf %[[X]], %[[SO]] : f32
//       CHECK:     %[[LO:.*]] = arith.maximumf %[[Q]], %{{.*}} : f32
//       CHECK:     %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
//  CHECK-NEXT:     %[[CODE:.*]] = arith.truncf %[[HI]] : f32 to f8E4M3FN
//   CHECK-NOT:     arith.extf
//  CHECK-NEXT:     linalg.yield %[[CODE]] : f8E4M3FN
func.func @result(%x: tensor<7x48xf8E4M3FN>, %w: tensor<24x48xf8E4M3FN>, %sa: tensor<f32>, %so: tensor<f32>) -> tensor<7x24xf8E4M3FN> {
  %0 = sol.kernel @fp8_result ins(%x, %w, %sa, %so : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<7x24xf8E4M3FN> {
  ^bb0(%a: tensor<7x48xf8E4M3FN>, %b: tensor<24x48xf8E4M3FN>, %s: tensor<f32>, %o: tensor<f32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%s : tensor<f32>) scale_out(%o : tensor<f32>) : tensor<7x48xf8E4M3FN>, tensor<24x48xf8E4M3FN> -> tensor<7x24xf8E4M3FN>
    sol.yield %m : tensor<7x24xf8E4M3FN>
  }
  return %0 : tensor<7x24xf8E4M3FN>
}

// -----

// A cast to e5m2 at the end of a bf16 epilogue saturates at 57344.
// CHECK-LABEL: func.func @cast_to_e5m2(
//       CHECK:   ^bb0(%[[X:.*]]: bf16, %{{.*}}: f8E5M2):
//  CHECK-NEXT:     %[[F:.*]] = arith.extf %[[X]] : bf16 to f32
//  CHECK-NEXT:     %[[MIN:.*]] = arith.constant -5.734400e+04 : f32
//  CHECK-NEXT:     %[[LO:.*]] = arith.maximumf %[[F]], %[[MIN]] : f32
//  CHECK-NEXT:     %[[MAX:.*]] = arith.constant 5.734400e+04 : f32
//  CHECK-NEXT:     %[[HI:.*]] = arith.minimumf %[[LO]], %[[MAX]] : f32
//  CHECK-NEXT:     %[[CODE:.*]] = arith.truncf %[[HI]] : f32 to f8E5M2
//  CHECK-NEXT:     linalg.yield %[[CODE]] : f8E5M2
func.func @cast(%x: tensor<9x16xbf16>) -> tensor<9x16xf8E5M2> {
  %0 = sol.kernel @cast_to_e5m2 ins(%x : tensor<9x16xbf16>) -> tensor<9x16xf8E5M2> {
  ^bb0(%a: tensor<9x16xbf16>):
    %q = sol.cast %a : tensor<9x16xbf16> to tensor<9x16xf8E5M2>
    sol.yield %q : tensor<9x16xf8E5M2>
  }
  return %0 : tensor<9x16xf8E5M2>
}

// -----

// Block-wise scales are the contraction's, not the epilogue's: each product
// is scaled by its K block's scales, indexed with floordiv (A's group
// [m, k / 128], B's block [n / 128, k / 128]); a per-token scale_a beside
// block-wise B stays an epilogue input.
// CHECK-DAG: #[[GROUP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2 floordiv 128)>
// CHECK-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 128, d2 floordiv 128)>
// CHECK-LABEL: func.func @fp8_block_wise(
//       CHECK:   %[[ACC:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[GROUP]], #[[BLOCK]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1, %arg2, %arg3 : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN>, tensor<7x3xf32>, tensor<2x3xf32>)
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: f8E4M3FN, %[[B:.*]]: f8E4M3FN, %[[SA:.*]]: f32, %[[SB:.*]]: f32, %[[OUT:.*]]: f32):
//       CHECK:     %[[P:.*]] = arith.mulf
//  CHECK-NEXT:     %[[PA:.*]] = arith.mulf %[[P]], %[[SA]] : f32
//  CHECK-NEXT:     %[[PB:.*]] = arith.mulf %[[PA]], %[[SB]] : f32
//  CHECK-NEXT:     arith.addf %[[OUT]], %[[PB]] : f32
//       CHECK:   linalg.generic {{.*}} ins(%[[ACC]] : tensor<7x200xf32>)
// CHECK-LABEL: func.func @fp8_token_and_blocks(
//       CHECK:   %[[ACC2:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1, %arg3 : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN>, tensor<2x3xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[ACC2]], %arg2 : tensor<7x200xf32>, tensor<7x1xf32>)
func.func @block_wise(%x: tensor<7x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>, %sx: tensor<7x3xf32>, %sw: tensor<2x3xf32>, %sxt: tensor<7x1xf32>) -> (tensor<7x200xf32>, tensor<7x200xf32>) {
  %0 = sol.kernel @fp8_block_wise ins(%x, %w, %sx, %sw : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN>, tensor<7x3xf32>, tensor<2x3xf32>) -> tensor<7x200xf32> {
  ^bb0(%a: tensor<7x300xf8E4M3FN>, %b: tensor<200x300xf8E4M3FN>, %sa: tensor<7x3xf32>, %sb: tensor<2x3xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<7x3xf32>) scale_b(%sb : tensor<2x3xf32>)
        : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xf32>
    sol.yield %m : tensor<7x200xf32>
  }
  %1 = sol.kernel @fp8_token_and_blocks ins(%x, %w, %sxt, %sw : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN>, tensor<7x1xf32>, tensor<2x3xf32>) -> tensor<7x200xf32> {
  ^bb0(%a: tensor<7x300xf8E4M3FN>, %b: tensor<200x300xf8E4M3FN>, %sa: tensor<7x1xf32>, %sb: tensor<2x3xf32>):
    %m = sol.matmul %a, %b transpose_b scale_a(%sa : tensor<7x1xf32>) scale_b(%sb : tensor<2x3xf32>)
        : tensor<7x300xf8E4M3FN>, tensor<200x300xf8E4M3FN> -> tensor<7x200xf32>
    sol.yield %m : tensor<7x200xf32>
  }
  return %0, %1 : tensor<7x200xf32>, tensor<7x200xf32>
}
