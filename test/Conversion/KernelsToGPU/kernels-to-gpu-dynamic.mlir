// Dynamic M through convert-sol-kernels-to-gpu (docs/dynamic-shapes.md,
// section 4): a kernel function with a plan table ('sol.plans', from
// sol-tile through convert-sol-to-linalg) becomes one gpu.module + gpu.func
// per row, named <kernel>__m<m_min>_<m_max>, typed for the row's m_max and
// taking the i64 value of the dynamic dim last; every mask compares against
// it. The kernel functions here are the linalg form of a dynamic sol
// function, each row's plan the one sol-tile chooses at the row's m_max.
// RUN: sol-opt %s --split-input-file --convert-sol-kernels-to-gpu --canonicalize | FileCheck %s

// Elementwise: the threads past dim x 2560 elements do nothing (the plan
// covers 65536 rows; the launch's grid covers the actual dim).
// CHECK-LABEL: gpu.module @ew_bias_relu_add_0__m1_65536
//       CHECK:   gpu.func @ew_bias_relu_add_0__m1_65536(%{{.*}}: memref<167772160xf16>, %{{.*}}: memref<2560xf16>, %{{.*}}: memref<167772160xf16>, %[[DIM:.*]]: i64) kernel
//  CHECK-SAME:     sol.plan = #sol.plan<path = elementwise
//  CHECK-SAME:     sol.plans = [#sol.plan_entry<m_min = 1, m_max = 65536, plan = <path = elementwise
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[ELEMS:.*]] = arith.muli %[[M]], %c2560 : index
//       CHECK:     %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[ELEMS]] : index
//       CHECK:     scf.if %[[IN]]
//       CHECK:       vector.store
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @ew_bias_relu_add_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560xf16>, %arg2: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 65536, plan = #sol.plan<path = elementwise, tile = [2048], warps = [1, 1], stages = 1, split_k = 1>>]} {
    %0 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560xf16>) outs(%arg2 : tensor<?x2560xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %1 = arith.extf %in : f16 to f32
      %2 = arith.extf %in_0 : f16 to f32
      %3 = arith.addf %1, %2 : f32
      %cst = arith.constant 0.000000e+00 : f32
      %4 = arith.maximumf %3, %cst : f32
      %5 = arith.truncf %4 : f32 to f16
      linalg.yield %5 : f16
    } -> tensor<?x2560xf16>
    return %0 : tensor<?x2560xf16>
  }
}

// -----

// A 1-D output: its innermost dim is the dynamic one, which the plan's
// vector (8, dividing the row's m_max) need not divide: a vector crossing M
// runs its elements below M one by one.
// CHECK-LABEL: gpu.module @ew_1d_mul_0__m8_8192
//       CHECK:   gpu.func @ew_1d_mul_0__m8_8192(%[[X:.*]]: memref<8192xf16>, %{{.*}}: memref<8192xf16>, %[[O:.*]]: memref<8192xf16>, %[[DIM:.*]]: i64) kernel
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[FIRST:.*]] = arith.muli %{{.*}}, %c8 : index
//       CHECK:     %[[IN:.*]] = arith.cmpi ult, %[[FIRST]], %[[M]] : index
//       CHECK:     scf.if %[[IN]] {
//       CHECK:       %[[LAST:.*]] = arith.addi %[[FIRST]], %c7 : index
//       CHECK:       %[[WHOLE:.*]] = arith.cmpi ult, %[[LAST]], %[[M]] : index
//       CHECK:       scf.if %[[WHOLE]] {
//       CHECK:         vector.load %[[X]][%[[FIRST]]] {alignment = 16 : i64} : memref<8192xf16>, vector<8xf16>
//       CHECK:         vector.store %{{.*}}, %[[O]][%[[FIRST]]]
//       CHECK:       } else {
//       CHECK:         %[[E1:.*]] = arith.addi %[[FIRST]], %c1 : index
//       CHECK:         %[[IN1:.*]] = arith.cmpi ult, %[[E1]], %[[M]] : index
//       CHECK:         scf.if %[[IN1]] {
//       CHECK:           memref.load %[[X]][%[[E1]]]
//       CHECK:           memref.store %{{.*}}, %[[O]][%[[E1]]]
//       CHECK:         %[[E7:.*]] = arith.addi %[[FIRST]], %c7 : index
//       CHECK:         %[[IN7:.*]] = arith.cmpi ult, %[[E7]], %[[M]] : index
//       CHECK:         scf.if %[[IN7]] {
#map = affine_map<(d0) -> (d0)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @ew_1d_mul_0(%arg0: tensor<?xf16>, %arg1: tensor<?xf16>, %arg2: tensor<?xf16>) -> tensor<?xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 8, m_max = 8192, plan = #sol.plan<path = elementwise, tile = [2048], warps = [1, 1], stages = 1, split_k = 1>>]} {
    %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<?xf16>, tensor<?xf16>) outs(%arg2 : tensor<?xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %1 = arith.extf %in : f16 to f32
      %2 = arith.extf %in_0 : f16 to f32
      %3 = arith.mulf %1, %2 : f32
      %4 = arith.truncf %3 : f32 to f16
      linalg.yield %4 : f16
    } -> tensor<?xf16>
    return %0 : tensor<?xf16>
  }
}

// -----

// SIMT: a thread's row against the launch's M.
// CHECK-LABEL: gpu.module @simt_exp_matmul_0__m1_4097
//       CHECK:   gpu.func @simt_exp_matmul_0__m1_4097(%{{.*}}: memref<135201xf32>, %{{.*}}: memref<2541xf32>, %{{.*}}: memref<315469xf32>, %[[DIM:.*]]: i64) kernel
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %[[M]] : index
//       CHECK:     %[[IN:.*]] = arith.andi %[[ROW]], %{{.*}} : i1
//       CHECK:     scf.if %[[IN]]
//       CHECK:       scf.for
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @simt_exp_matmul_0(%arg0: tensor<?x33xf32>, %arg1: tensor<77x33xf32>, %arg2: tensor<?x77xf32>) -> tensor<?x77xf32> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 4097, plan = #sol.plan<path = simt, tile = [16, 16, 1], warps = [1, 1], stages = 1, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x33xf32>
    %0 = tensor.empty(%dim) : tensor<?x77xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x77xf32>) -> tensor<?x77xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x33xf32>, tensor<77x33xf32>) outs(%1 : tensor<?x77xf32>) -> tensor<?x77xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x77xf32>) outs(%arg2 : tensor<?x77xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = math.exp %in : f32
      linalg.yield %4 : f32
    } -> tensor<?x77xf32>
    return %3 : tensor<?x77xf32>
  }
}

// -----

// gemv: the tile holds the row's m_max (16) rows; a row at or past M
// neither loads A nor reduces (warp-uniform branches yielding the running
// sum), nor stores. Row 0 is there at every launch (the row's m_min is 1),
// so it has no branch: branches around every row would keep the unrolled
// weight loads from being in flight together.
// CHECK-LABEL: gpu.module @gemv_residual_matmul_0__m1_16
//       CHECK:   gpu.func @gemv_residual_matmul_0__m1_16(%[[A:.*]]: memref<40960xf16>, %{{.*}}: memref<6553600xf16>, %{{.*}}: memref<40960xf16>, %{{.*}}: memref<40960xf16>, %[[DIM:.*]]: i64) kernel
//  CHECK-SAME:     sol.plan = #sol.plan<path = gemv, tile = [16, 4, 8]
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//   CHECK-NOT:     arith.cmpi ugt, %[[M]], %c0 : index
//       CHECK:     %[[ROW1:.*]] = arith.cmpi ugt, %[[M]], %c1 : index
//       CHECK:     %[[ROW15:.*]] = arith.cmpi ugt, %[[M]], %c15 : index
//       CHECK:     scf.for
//       CHECK:       vector.load %[[A]]
//       CHECK:       scf.if %[[ROW1]] -> (f32) {
//  CHECK-NEXT:         arith.addi
//  CHECK-NEXT:         vector.load %[[A]]
//       CHECK:       } else {
//  CHECK-NEXT:         scf.yield %{{.*}} : f32
//       CHECK:       scf.if %[[ROW15]] -> (f32) {
//  CHECK-NEXT:         %[[OFF:.*]] = arith.addi %{{.*}}, %c38400 : index
//  CHECK-NEXT:         vector.load %[[A]][%[[OFF]]]
//       CHECK:     gpu.shuffle  xor %{{.*}}#0, %c16_i32
//       CHECK:     scf.if %[[ROW15]] -> (f32) {
//  CHECK-NEXT:       gpu.shuffle  xor %{{.*}}#15, %c16_i32
//       CHECK:     %[[MINE:.*]] = arith.andi %{{.*}}, %[[ROW15]] : i1
//       CHECK:     scf.if %[[MINE]] {
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @gemv_residual_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = gemv, tile = [16, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

// mma.sync, a table of two rows: two kernels, each typed for its m_max;
// A's cp.async copies zero-fill rows at or past M, the epilogue's stores
// are masked by it.
// CHECK-LABEL: gpu.module @mma_rows_matmul_0__m17_129
//       CHECK:   gpu.func @mma_rows_matmul_0__m17_129(%[[A:.*]]: memref<330240xf16>, %{{.*}}: memref<6553600xf16>, %{{.*}}: memref<330240xf16>, %{{.*}}: memref<330240xf16>, %[[DIM:.*]]: i64) kernel
//  CHECK-SAME:     sol.plans = [#sol.plan_entry<m_min = 17, m_max = 129, plan = <path = mma_sync
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %[[M]] : index
//       CHECK:     %[[VALID:.*]] = arith.andi %[[ROW]], %{{.*}} : i1
//       CHECK:     %[[SAFE:.*]] = arith.select %[[VALID]], %{{.*}}, %c0 : index
//       CHECK:     %[[SIZE:.*]] = arith.select %[[VALID]], %c8, %c0 : index
//       CHECK:     nvgpu.device_async_copy %[[A]][%[[SAFE]]], %{{.*}}, 8, %[[SIZE]]
//       CHECK:     nvvm.mma.sync
//       CHECK:     %[[OUTROW:.*]] = arith.cmpi ult, %{{.*}}, %[[M]] : index
//       CHECK:     %[[STORE:.*]] = arith.andi %[[OUTROW]], %{{.*}} : i1
//       CHECK:     scf.if %[[STORE]]
//       CHECK:       vector.store
// CHECK-LABEL: gpu.module @mma_rows_matmul_0__m130_4097
//       CHECK:   gpu.func @mma_rows_matmul_0__m130_4097(%{{.*}}: memref<10488320xf16>, %{{.*}}: memref<6553600xf16>, %{{.*}}: memref<10488320xf16>, %{{.*}}: memref<10488320xf16>, %{{.*}}: i64) kernel
//  CHECK-SAME:     sol.plans = [#sol.plan_entry<m_min = 130, m_max = 4097, plan = <path = mma_sync
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @mma_rows_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 17, m_max = 129, plan = #sol.plan<path = mma_sync, tile = [32, 64, 64], warps = [1, 4], stages = 4, split_k = 1>>, #sol.plan_entry<m_min = 130, m_max = 4097, plan = #sol.plan<path = mma_sync, tile = [64, 128, 32], warps = [2, 2], stages = 3, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

// Split K: the partials and arrival counts are sized for the row's m_max
// grid ([40, 1, 4]: 40 tiles) and tiles numbered by the grid's N width,
// which a launch at any M <= m_max keeps; the masks use M (rows = dim x 1).
// CHECK-LABEL: gpu.module @splitk_decode_matmul_0__m1_16
//       CHECK:   memref.global "private" @sol_split_k_partials : memref<163840xf32, #gpu.address_space<global>>
//       CHECK:   memref.global "private" @sol_split_k_arrivals : memref<40xi32, #gpu.address_space<global>> = dense<0>
//       CHECK:   gpu.func @splitk_decode_matmul_0__m1_16(%{{.*}}: memref<40960xf16>, %{{.*}}: memref<6553600xf16>, %{{.*}}: memref<40960xf16>, %{{.*}}: memref<40960xf16>, %[[DIM:.*]]: i64) kernel
//  CHECK-SAME:     split_k = 4>
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     arith.cmpi ult, %{{.*}}, %[[M]] : index
//       CHECK:     nvgpu.device_async_copy
//       CHECK:     memref.atomic_rmw addi
//       CHECK:     arith.cmpi ult, %{{.*}}, %[[M]] : index
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @splitk_decode_matmul_0(%arg0: tensor<?x1x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x1x2560xf16>, %arg3: tensor<?x1x2560xf16>) -> tensor<?x1x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = mma_sync, tile = [16, 64, 64], warps = [1, 4], stages = 4, split_k = 4>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x1x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x1x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x1x2560xf32>) -> tensor<?x1x2560xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<?x1x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x1x2560xf32>) {
    ^bb0(%in: f16, %in_0: f16, %out: f32):
      %4 = arith.extf %in : f16 to f32
      %5 = arith.extf %in_0 : f16 to f32
      %6 = arith.mulf %4, %5 : f32
      %7 = arith.addf %out, %6 : f32
      linalg.yield %7 : f32
    } -> tensor<?x1x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<?x1x2560xf32>, tensor<?x1x2560xf16>) outs(%arg3 : tensor<?x1x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x1x2560xf16>
    return %3 : tensor<?x1x2560xf16>
  }
}

// -----

// A [?, 512, K] activation: the rows are dim x 512.
// CHECK-LABEL: gpu.module @prefill_3d_matmul_0__m1_16
//       CHECK:   gpu.func @prefill_3d_matmul_0__m1_16(%{{.*}}: memref<20971520xf16>, %{{.*}}: memref<6553600xf16>, %{{.*}}: memref<20971520xf16>, %{{.*}}: memref<20971520xf16>, %[[DIM:.*]]: i64) kernel
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[ROWS:.*]] = arith.muli %[[M]], %c512 : index
//       CHECK:     arith.cmpi ult, %{{.*}}, %[[ROWS]] : index
//       CHECK:     nvgpu.device_async_copy
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @prefill_3d_matmul_0(%arg0: tensor<?x512x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x512x2560xf16>, %arg3: tensor<?x512x2560xf16>) -> tensor<?x512x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = mma_sync, tile = [64, 64, 32], warps = [2, 2], stages = 4, split_k = 1>>]} {
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

// -----

// wgmma, fed by cp.async: A's copies and the epilogue's stores masked by M.
// CHECK-LABEL: gpu.module @wgmma_gelu_matmul_0__m1_8192
//       CHECK:   gpu.func @wgmma_gelu_matmul_0__m1_8192(%[[A:.*]]: memref<20971520xf16>, %{{.*}}: memref<26214400xf16>, %{{.*}}: memref<10240xf16>, %{{.*}}: memref<83886080xf16>, %[[DIM:.*]]: i64) kernel
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %[[M]] : index
//       CHECK:     %[[VALID:.*]] = arith.andi %[[ROW]], %{{.*}} : i1
//       CHECK:     %[[SIZE:.*]] = arith.select %[[VALID]], %c8, %c0 : index
//       CHECK:     nvgpu.device_async_copy %[[A]][%{{.*}}], %{{.*}}, 8, %[[SIZE]]
//       CHECK:     nvvm.wgmma.mma_async
//       CHECK:     %[[OUTROW:.*]] = arith.cmpi ult, %{{.*}}, %[[M]] : index
//       CHECK:     arith.andi %[[OUTROW]], %{{.*}} : i1
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

// -----

// wgmma_tma with 2-block clusters: the persistent walk covers
// ceil(ceil(M / 128) / 2) cluster rows x 20 N tiles (a cluster's second
// block past the last M tile still runs its unit: it multicasts its share
// of B); the maps come before the i64.
// CHECK-LABEL: gpu.module @tma_cluster_matmul_0__m1_8192
//       CHECK:   gpu.func @tma_cluster_matmul_0__m1_8192(%{{.*}}: memref<20971520xf16>, %{{.*}}: memref<6553600xf16>, %{{.*}}: memref<20971520xf16>, %{{.*}}: memref<20971520xf16>, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[DIM:.*]]: i64) kernel
//  CHECK-SAME:     cluster = 2
//  CHECK-SAME:     sol.tensor_maps = 2 : i64
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[T0:.*]] = arith.addi %[[M]], %c127 : index
//       CHECK:     %[[TILES:.*]] = arith.divui %[[T0]], %c128 : index
//       CHECK:     %[[T1:.*]] = arith.addi %[[TILES]], %c1 : index
//       CHECK:     %[[UNITSM:.*]] = arith.divui %[[T1]], %c2 : index
//       CHECK:     %[[UNITS:.*]] = arith.muli %[[UNITSM]], %c20 : index
//       CHECK:     scf.for %{{.*}} = %{{.*}} to %[[UNITS]] step
//       CHECK:       arith.subi %[[UNITSM]], %{{.*}} : index
//       CHECK:       nvvm.cp.async.bulk.tensor.shared.cluster.global
//       CHECK:     scf.for %{{.*}} = %{{.*}} to %[[UNITS]] step
//       CHECK:       nvvm.wgmma.mma_async
//       CHECK:       arith.cmpi ult, %{{.*}}, %[[M]] : index
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @tma_cluster_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1, cluster = 2>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

// wgmma_tma ping-pong: consumer c walks every other unit of the launch's.
// CHECK-LABEL: gpu.module @tma_pingpong_matmul_0__m1_8192
//       CHECK:   gpu.func @tma_pingpong_matmul_0__m1_8192({{.*}}, %[[DIM:.*]]: i64) kernel
//  CHECK-SAME:     schedule = pingpong
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[T0:.*]] = arith.addi %[[M]], %c127 : index
//       CHECK:     %[[TILES:.*]] = arith.divui %[[T0]], %c128 : index
//       CHECK:     %[[UNITS:.*]] = arith.muli %[[TILES]], %c20 : index
//       CHECK:     scf.for %{{.*}} = %{{.*}} to %[[UNITS]] step
//       CHECK:     scf.for %{{.*}} = %{{.*}} to %[[UNITS]] step
//       CHECK:       nvvm.wgmma.mma_async
//       CHECK:       arith.cmpi ult, %{{.*}}, %[[M]] : index
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @tma_pingpong_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [1, 1], stages = 6, split_k = 1, schedule = pingpong>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

// wgmma_tma with 256-row tiles: ceil(M / 256) M tiles.
// CHECK-LABEL: gpu.module @tma_tall_matmul_0__m1_8192
//       CHECK:   gpu.func @tma_tall_matmul_0__m1_8192({{.*}}, %[[DIM:.*]]: i64) kernel
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[T0:.*]] = arith.addi %[[M]], %c255 : index
//       CHECK:     %[[TILES:.*]] = arith.divui %[[T0]], %c256 : index
//       CHECK:     %[[UNITS:.*]] = arith.muli %[[TILES]], %c20 : index
//       CHECK:     scf.for %{{.*}} = %{{.*}} to %[[UNITS]] step
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {sol.target = #sol.target<"h200">} {
  func.func @tma_tall_matmul_0(%arg0: tensor<?x2560xf16>, %arg1: tensor<2560x2560xf16>, %arg2: tensor<?x2560xf16>, %arg3: tensor<?x2560xf16>) -> tensor<?x2560xf16> attributes {sol.kernel, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [256, 128, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
    %c0_idx = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0_idx : tensor<?x2560xf16>
    %0 = tensor.empty(%dim) : tensor<?x2560xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %2 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<?x2560xf16>, tensor<2560x2560xf16>) outs(%1 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
    %3 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x2560xf32>, tensor<?x2560xf16>) outs(%arg3 : tensor<?x2560xf16>) {
    ^bb0(%in: f32, %in_0: f16, %out: f16):
      %4 = arith.extf %in_0 : f16 to f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.truncf %5 : f32 to f16
      linalg.yield %6 : f16
    } -> tensor<?x2560xf16>
    return %3 : tensor<?x2560xf16>
  }
}

// -----

// A sibling pair (SwiGLU's gate and up) on wgmma_tma: three maps, then
// the i64; 96 N tiles of 72 columns of each weight.
// CHECK-LABEL: gpu.module @swiglu_matmul_0__m1_8192
//       CHECK:   gpu.func @swiglu_matmul_0__m1_8192(%{{.*}}: memref<20971520xf16>, %{{.*}}: memref<17694720xf16>, %{{.*}}: memref<17694720xf16>, %{{.*}}: memref<56623104xf16>, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[DIM:.*]]: i64) kernel
//  CHECK-SAME:     sol.tensor_maps = 3 : i64
//       CHECK:     %[[M:.*]] = arith.index_castui %[[DIM]] : i64 to index
//       CHECK:     %[[T0:.*]] = arith.addi %[[M]], %c127 : index
//       CHECK:     %[[TILES:.*]] = arith.divui %[[T0]], %c128 : index
//       CHECK:     %[[UNITS:.*]] = arith.muli %[[TILES]], %c96 : index
//       CHECK:     scf.for %{{.*}} = %{{.*}} to %[[UNITS]] step
//       CHECK:       arith.cmpi ult, %{{.*}}, %[[M]] : index
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
