// RUN: sol-opt %s --split-input-file --sol-strip-host-funcs | FileCheck %s

// Host functions go, kernel functions stay; no sol.* annotation survives, on
// the kernels or on the module.
// CHECK-LABEL: module {
//   CHECK-NOT:   sol.
//       CHECK:   func.func @k(%{{.*}}: tensor<8xf32>, %{{.*}}: tensor<8xf32>) -> tensor<8xf32> {
//   CHECK-NOT:   func.func @host
module attributes {sol.target = #sol.target<"h200">} {
  func.func @k(%x: tensor<8xf32>, %out: tensor<8xf32>) -> tensor<8xf32> attributes {sol.kernel, sol.plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
    return %x : tensor<8xf32>
  }
  func.func @host(%x: tensor<8xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %0 = call @k(%x, %e) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
