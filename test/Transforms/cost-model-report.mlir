// RUN: sol-opt %s -sol-cost-model=report=table -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: sol-opt %s -sol-cost-model=report=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: sol-opt %s -sol-cost-model="report=json report-file=%t.json" -o /dev/null && FileCheck %s --check-prefix=JSON < %t.json
// RUN: not sol-opt %s -sol-cost-model=report=html -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADKIND
// RUN: not sol-opt %s -sol-cost-model="report=table report-file=%t.missing-dir/x.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADFILE

// One line per kernel in program order, then the module totals.
// TABLE: sol cost report: target h200 (sm_90a, 132 SMs, 989.0 TFLOP/s f16, 4800.0 GB/s HBM)
// TABLE-NEXT: kernel FLOPs bytes  FLOP/B  bound T_ideal us T_pred us  SOL_pred  limiter
// TABLE-NEXT: oproj_residual 1.07e+11  1.39e+08   773.0  compute 108.570 163.140 0.665  matmul
// TABLE-NEXT: report:sol.relu#0 4.1e+03  1.64e+04     0.2  latency 0.003 3.20{{[0-9]}} 0.001  launch
// TABLE-NEXT: total: 2 kernel(s), T_ideal 108.573 us, T_pred {{.*}} us, SOL_pred 0.6{{[0-9]+}}
// TABLE-NEXT: traffic: 139.0 MB fused, 222.8 MB unfused, 83.9 MB saved by fusion

// JSON: "kernels": [
// JSON: "bound": "compute",
// JSON: "kernel": "oproj_residual",
// JSON: "limiter": "matmul",
// JSON: "tc_flops": 107374182400
// JSON: "bound": "latency",
// JSON: "kernel": "report:sol.relu#0",
// JSON: "summary": {
// JSON: "saved_bytes": 83886080,
// JSON: "unfused_bytes": 222838784
// JSON: "target": {
// JSON: "name": "h200"

// BADKIND: error: sol-cost-model: unknown report kind 'html'; expected none, table or json
// BADFILE: error: sol-cost-model: cannot write report: {{.*}}x.txt

module attributes {sol.target = #sol.target<"h200">} {
  func.func @report(%x: tensor<16x512x2560xf16>, %w: tensor<2560x2560xf16>,
                    %r: tensor<16x512x2560xf16>, %s: tensor<4096xf16>)
      -> (tensor<16x512x2560xf16>, tensor<4096xf16>) {
    %0 = sol.kernel @oproj_residual ins(%x, %w, %r : tensor<16x512x2560xf16>, tensor<2560x2560xf16>, tensor<16x512x2560xf16>) -> tensor<16x512x2560xf16> {
    ^bb0(%a: tensor<16x512x2560xf16>, %b: tensor<2560x2560xf16>, %c: tensor<16x512x2560xf16>):
      %mm = sol.matmul %a, %b transpose_b : tensor<16x512x2560xf16>, tensor<2560x2560xf16> -> tensor<16x512x2560xf16>
      %y = sol.add %mm, %c : tensor<16x512x2560xf16>, tensor<16x512x2560xf16> -> tensor<16x512x2560xf16>
      sol.yield %y : tensor<16x512x2560xf16>
    }
    %1 = sol.relu %s : tensor<4096xf16>
    return %0, %1 : tensor<16x512x2560xf16>, tensor<4096xf16>
  }
}
