#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @swiglu_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<6912x2560xf16>, %arg2: tensor<6912x2560xf16>, %arg3: tensor<?x6912xf16>) -> tensor<?x6912xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 144, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x6912xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<6912x2560xf16>) outs(%1 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %3 = tensor.empty(%dim) : tensor<?x6912xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %5 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg2 : tensor<?x2560xf16>, tensor<6912x2560xf16>) outs(%4 : tensor<?x6912xf32>) -> tensor<?x6912xf32>
    %6 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %5 : tensor<?x6912xf32>, tensor<?x6912xf32>) outs(%arg3 : tensor<?x6912xf16>) {
    ^bb0(%in: f32, %in_1: f32, %out: f16):
      %7 = arith.negf %in : f32
      %8 = math.exp %7 : f32
      %cst_2 = arith.constant 1.000000e+00 : f32
      %9 = arith.addf %cst_2, %8 : f32
      %10 = arith.divf %in, %9 : f32
      %11 = arith.mulf %10, %in_1 : f32
      %12 = arith.truncf %11 : f32 to f16
      linalg.yield %12 : f16
    } -> tensor<?x6912xf16>
    return %6 : tensor<?x6912xf16>
  }
}