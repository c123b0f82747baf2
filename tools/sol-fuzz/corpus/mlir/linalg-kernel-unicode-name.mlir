#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @"ünicöde"(%arg0: tensor<?x512x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x512x2560xf16>, %arg3: tensor<?x512x2560xf16>) -> tensor<?x512x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = mma_sync, tile = [64, 64, 32], warps = [2, 2], stages = 4, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x512x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x512x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x512x2560xf32>) -> tensor<?x512x2560xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<?x512x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x512x2560xf32>) {
    ^bb0(%in: f16, %in_0: f16, %out: f32):
      %4 = arith.extf %in : f16 to f32
      %5 = arith.extf %in_0 : f16 to f32
      %6 = arith.mulf %4, %5 : f32
      %7 = arith.addf %out, %6 : f32
      linalg.yield %7 : f32
    } -> tensor<?x512x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<?x512x2560xf32>, tensor<?x512x2560xf16>) outs(%arg3 : tensor<?x512x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x512x2560xf16>
    return %3 : tensor<?x512x2560xf16>
  }
}