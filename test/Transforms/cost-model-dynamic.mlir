// RUN: sol-opt %s -split-input-file -sol-cost-model | FileCheck %s
// RUN: sol-opt %s -split-input-file -sol-cost-model=report=table -o /dev/null 2>&1 | FileCheck %s --check-prefix=TABLE

// A dynamic kernel is priced at each report point of its range (1, the hint
// 16, the max 4096) through its static clone; `cost` is the one at the max.
// o_proj + residual, N = K = 2560, f16:
//   FLOPs(m) = 2*m*2560*2560 = 13107200*m: 13107200, 209715200, 53687091200
//   ew(m) = m*2560 (one add): 2560, 40960, 10485760
//   bytes(m) = A 5120m + W 13107200 + R 5120m + out 5120m = 13107200 + 15360m:
//     13122560, 13352960, 76021760
//   T_ideal(4096) = max(53687091200 / 989e12, 76021760 / 4.8e12) = 54.28 us
// CHECK-LABEL: func.func @oproj_residual_priced_at_points
// CHECK: sol.kernel @oproj ins
// CHECK-SAME: cost = #sol.cost<bound = compute, tc_flops = 53687091200, ew_flops = 10485760, bytes = 76021760, intensity = 706.3, balance = 206.0, t_compute_us = 54.284, t_memory_us = 15.838, t_ideal_us = 54.284
// CHECK-SAME: costs = [#sol.cost_point<m = 1, cost = <bound = latency, tc_flops = 13107200, ew_flops = 2560, bytes = 13122560,
// CHECK-SAME: #sol.cost_point<m = 16, cost = <bound = latency, tc_flops = 209715200, ew_flops = 40960, bytes = 13352960,
// CHECK-SAME: #sol.cost_point<m = 4096, cost = <bound = compute, tc_flops = 53687091200, ew_flops = 10485760, bytes = 76021760,
// TABLE: dynamic kernels: one line per point of the dim range (name[m=M]); the totals count each at its range's max
// TABLE: oproj[m=1]     1.31e+07  1.31e+07
// TABLE: oproj[m=16]     2.1e+08  1.34e+07
// TABLE: oproj[m=4096]  5.37e+10   7.6e+07
// TABLE: total: 1 kernel(s), T_ideal 54.284 us
module attributes {sol.target = #sol.target<"h200">, sol.dim_range = #sol.dim_range<min = 1, max = 4096, hints = [16]>} {
  func.func @oproj_residual_priced_at_points(%x: tensor<?x2560xf16>, %w: tensor<2560x2560xf16>, %r: tensor<?x2560xf16>) -> tensor<?x2560xf16> {
    %0 = sol.kernel @oproj ins(%x, %w, %r : tensor<?x2560xf16>, tensor<2560x2560xf16>, tensor<?x2560xf16>) -> tensor<?x2560xf16> {
    ^bb0(%a: tensor<?x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<?x2560xf16>):
      %mm = sol.matmul %a, %b transpose_b : tensor<?x2560xf16>, tensor<2560x2560xf16> -> tensor<?x2560xf16>
      %y = sol.add %mm, %c : tensor<?x2560xf16>, tensor<?x2560xf16> -> tensor<?x2560xf16>
      sol.yield %y : tensor<?x2560xf16>
    }
    return %0 : tensor<?x2560xf16>
  }
}

// -----

// No declared range: 1..65536, the ends only. A lone dynamic op is priced
// the same way and keeps its cost at the max:
//   neg of [?, 4096] f32: ew = 4096m; bytes = 2 * 4 * 4096m = 32768m
//   m = 65536: ew = 268435456, bytes = 2147483648
// CHECK-LABEL: func.func @lone_op_default_range
// CHECK: sol.neg {{.*}} {sol.cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 268435456, bytes = 2147483648,
// TABLE: lone_op_default_range:sol.neg#0[m=1]
// TABLE: lone_op_default_range:sol.neg#0[m=65536]
module attributes {sol.target = #sol.target<"h200">} {
  func.func @lone_op_default_range(%x: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
    %0 = sol.neg %x : tensor<?x4096xf32>
    return %0 : tensor<?x4096xf32>
  }
}
