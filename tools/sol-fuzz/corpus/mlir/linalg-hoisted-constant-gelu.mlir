#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @wgmma_gelu_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<10240x2560xf16>, %arg2: tensor<10240xf16>, %arg3: tensor<?x10240xf16>) -> tensor<?x10240xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x10240xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x10240xf32>) -> tensor<?x10240xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<10240x2560xf16>) outs(%1 : tensor<?x10240xf32>) -> tensor<?x10240xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x10240xf32>, tensor<10240xf16>) outs(%arg3 : tensor<?x10240xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.mulf %5, %5 : f32
      %7 = arith.mulf %6, %5 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %8 = arith.mulf %cst_1, %7 : f32
      %9 = arith.addf %5, %8 : f32
      %cst_2 = arith.constant 0.797884583 : f32
      %10 = arith.mulf %cst_2, %9 : f32
      %11 = math.tanh %10 : f32
      %cst_3 = arith.constant 5.000000e-01 : f32
      %12 = arith.mulf %cst_3, %5 : f32
      %cst_4 = arith.constant 1.000000e+00 : f32
      %13 = arith.addf %cst_4, %11 : f32
      %14 = arith.mulf %12, %13 : f32
      %15 = arith.truncf %14 : f32 to f16
      linalg.yield %15 : f16
    } -> tensor<?x10240xf16>
    return %3 : tensor<?x10240xf16>
  }
}