// RUN: sol-opt %s --split-input-file --sol-write-manifests=dir=%t -verify-diagnostics
// RUN: not sol-opt %s --split-input-file --sol-write-manifests 2>&1 | FileCheck %s --check-prefix=NODIR

// NODIR: sol-write-manifests: no 'dir' given

// A manifest states the launch: a kernel must be planned first.
module attributes {sol.target = #sol.target<"h200">} {
func.func @unplanned(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{sol-write-manifests: kernel @k has no plan: run sol-tile first}}
  %0 = sol.kernel @k ins(%x : tensor<8xf16>) -> tensor<8xf16> {
  ^bb0(%a: tensor<8xf16>):
    %n = sol.neg %a : tensor<8xf16>
    sol.yield %n : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}
}
