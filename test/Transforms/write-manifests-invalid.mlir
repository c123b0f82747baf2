// RUN: rm -f %t/../x.json
// RUN: sol-opt %s --split-input-file --sol-write-manifests=dir=%t -verify-diagnostics
// RUN: not test -e %t/../x.json
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

// -----

// A wgmma_tma kernel's TMA maps describe the buffers of its matmul's
// operands: an A computed inside the kernel has no buffer to describe.
module attributes {sol.target = #sol.target<"h200">} {
func.func @tma_computed_lhs(%x: tensor<256x64xf16>, %w: tensor<128x64xf16>) -> tensor<256x128xf16> {
  // expected-error @+1 {{sol-write-manifests: a wgmma_tma plan needs A and an [N, K] B (or one [K, N] B) that are kernel arguments}}
  %0 = sol.kernel @k ins(%x, %w : tensor<256x64xf16>, tensor<128x64xf16>) -> tensor<256x128xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>} {
  ^bb0(%a: tensor<256x64xf16>, %b: tensor<128x64xf16>):
    %n = sol.neg %a : tensor<256x64xf16>
    %m = sol.matmul %n, %b transpose_b : tensor<256x64xf16>, tensor<128x64xf16> -> tensor<256x128xf16>
    sol.yield %m : tensor<256x128xf16>
  }
  return %0 : tensor<256x128xf16>
}
}

// -----

// The maps are one A and one B per weight: a kernel without a matmul has
// none.
module attributes {sol.target = #sol.target<"h200">} {
func.func @tma_no_matmul(%x: tensor<256x64xf16>) -> tensor<256x64xf16> {
  // expected-error @+1 {{sol-write-manifests: a wgmma_tma plan needs one matmul or a sibling pair}}
  %0 = sol.kernel @k ins(%x : tensor<256x64xf16>) -> tensor<256x64xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>} {
  ^bb0(%a: tensor<256x64xf16>):
    %n = sol.neg %a : tensor<256x64xf16>
    sol.yield %n : tensor<256x64xf16>
  }
  return %0 : tensor<256x64xf16>
}
}

// -----

// A kernel's name becomes `<dir>/<name>.json`: a name that is not an
// identifier never reaches the file system (@"../x" would write outside
// dir).
module attributes {sol.target = #sol.target<"h200">} {
func.func @escaping_name(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @+1 {{sol-write-manifests: kernel @"../x" cannot name a file: its name holds a path separator; a kernel name must match [A-Za-z_][A-Za-z0-9_]*}}
  %0 = sol.kernel @"../x" ins(%x : tensor<8xf16>) -> tensor<8xf16> attributes {plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  ^bb0(%a: tensor<8xf16>):
    %n = sol.neg %a : tensor<8xf16>
    sol.yield %n : tensor<8xf16>
  }
  return %0 : tensor<8xf16>
}
}

// -----

// A dynamic kernel's manifest states a launch per row of its plan table:
// without one there is nothing to state.
module attributes {sol.target = #sol.target<"h200">} {
func.func @dynamic_unplanned(%x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  // expected-error @+1 {{sol-write-manifests: dynamic kernel @k has no plan table ('plans'): run sol-tile first}}
  %0 = sol.kernel @k ins(%x : tensor<?x8xf16>) -> tensor<?x8xf16> {
  ^bb0(%a: tensor<?x8xf16>):
    %n = sol.neg %a : tensor<?x8xf16>
    sol.yield %n : tensor<?x8xf16>
  }
  return %0 : tensor<?x8xf16>
}
}

// -----

// The launch is the plan's path's geometry over the kernel's shapes: a
// hand-written plan whose launch CUDA would refuse (600e9 elements in blocks
// of 256 are more blocks than grid x holds) has no manifest.
module attributes {sol.target = #sol.target<"h200">} {
func.func @unlaunchable(%x: tensor<600000000000xf16>) -> tensor<600000000000xf16> {
  // expected-error @+1 {{sol-write-manifests: the plan of @k cannot launch: grid x = 2343750000 exceeds CUDA's limit of 2147483647}}
  %0 = sol.kernel @k ins(%x : tensor<600000000000xf16>) -> tensor<600000000000xf16> attributes {plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  ^bb0(%a: tensor<600000000000xf16>):
    %n = sol.neg %a : tensor<600000000000xf16>
    sol.yield %n : tensor<600000000000xf16>
  }
  return %0 : tensor<600000000000xf16>
}
}

// -----

// A dynamic kernel's rows are checked at the M each is built for: 2^31 - 1
// rows of 512 elements in blocks of 256 at the second row's m_max.
module attributes {sol.target = #sol.target<"h200">} {
func.func @unlaunchable_row(%x: tensor<?x512xf16>) -> tensor<?x512xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 2147483647>} {
  // expected-error @+1 {{sol-write-manifests: the plan of row 17..2147483647 of @k cannot launch: grid x = 4294967294 exceeds CUDA's limit of 2147483647}}
  %0 = sol.kernel @k ins(%x : tensor<?x512xf16>) -> tensor<?x512xf16> attributes {plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>>, #sol.plan_entry<m_min = 17, m_max = 2147483647, plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>>]} {
  ^bb0(%a: tensor<?x512xf16>):
    %n = sol.neg %a : tensor<?x512xf16>
    sol.yield %n : tensor<?x512xf16>
  }
  return %0 : tensor<?x512xf16>
}
}
