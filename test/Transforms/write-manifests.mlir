// RUN: rm -rf %t && sol-opt %s --split-input-file --sol-write-manifests=dir=%t -o /dev/null
// The manifests, whitespace dropped (llvm::json writes keys sorted).
// RUN: tr -d ' \n' < %t/static_elementwise.json | FileCheck %s --check-prefix=EW
// RUN: tr -d ' \n' < %t/static_tma.json | FileCheck %s --check-prefix=TMA
// RUN: tr -d ' \n' < %t/static_batched.json | FileCheck %s --check-prefix=BATCHED
// RUN: tr -d ' \n' < %t/dynamic_rows.json | FileCheck %s --check-prefix=DYN
// The runtime reads the dynamic one and resolves it at each M (the launch,
// the row, the maps' rows), a row's grid rule agreeing with its grid.
// RUN: not %sol_tools_dir/sol-run --backend=host --lib=/nonexistent.so --dim=1,16,17,200,4096 %t/dynamic_rows.json | FileCheck %s --check-prefix=AT

// A static manifest: its binaries, launch and plan at the top level, its
// shapes as compiled, its cost.
// EW:      {"args":[{"dtype":"f32","name":"arg0","role":"input","shape":[8,256]},
// EW-SAME: {"dtype":"f32","name":"out0","role":"output","shape":[8,256]}],
// EW-SAME: "cost":{"bound":"memory",
// EW-SAME: "cubin":"static_elementwise.cubin","kernel":"static_elementwise",
// EW-SAME: "launch":{"block":[256,1,1],"cluster":[1,1,1],"grid":[8,1,1],"smem":0},
// EW-SAME: "outputs":[1],"plan":{"cluster":1,"path":"elementwise",
// EW-SAME: "program":[{"index":0,"op":"arg"},{"dtype":"f32","op":"neg","operands":[0],"shape":[8,256]}],
// EW-SAME: "ptx":"static_elementwise.ptx",
// EW-SAME: "target":{"chip":"sm_90a","l2_bytes":62914560,"name":"h200","peak_gbps":4800,"peak_tflops":66.9{{[0-9]*}}}}
module attributes {sol.target = #sol.target<"h200">} {
func.func @static_manifest_elementwise(%x: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %0 = sol.kernel @static_elementwise ins(%x : tensor<8x256xf32>) -> tensor<8x256xf32> attributes {
    cost = #sol.cost<bound = memory, tc_flops = 0, ew_flops = 2048, bytes = 16384, intensity = 0.125, balance = 206.0, t_compute_us = 0.001, t_memory_us = 0.004, t_ideal_us = 0.004, t_pred_us = 2.5, sol_pred = 0.002, limiter = launch>,
    plan = #sol.plan<path = elementwise, tile = [256], warps = [1, 1], stages = 1, split_k = 1>} {
  ^bb0(%a: tensor<8x256xf32>):
    %n = sol.neg %a : tensor<8x256xf32>
    sol.yield %n : tensor<8x256xf32>
  }
  return %0 : tensor<8x256xf32>
}
}

// -----

// A static wgmma_tma manifest's maps: A as [K, rows] in 64 x tile_m boxes,
// B as [K, N] in 64 x tile_n boxes.
// TMA:      "tensor_maps":[{"arg":0,"box":[64,128],"dims":[64,256],"dtype":"f16","l2_promotion":"256B","oob_fill":"zero","swizzle":"128B"},
// TMA-SAME: {"arg":1,"box":[64,128],"dims":[64,128],"dtype":"f16",
module attributes {sol.target = #sol.target<"h200">} {
func.func @static_manifest_tma(%x: tensor<256x64xf16>, %w: tensor<128x64xf16>) -> tensor<256x128xf16> {
  %0 = sol.kernel @static_tma ins(%x, %w : tensor<256x64xf16>, tensor<128x64xf16>) -> tensor<256x128xf16> attributes {plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>} {
  ^bb0(%a: tensor<256x64xf16>, %b: tensor<128x64xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<256x64xf16>, tensor<128x64xf16> -> tensor<256x128xf16>
    sol.yield %m : tensor<256x128xf16>
  }
  return %0 : tensor<256x128xf16>
}
}

// -----

// The launch is the plan's path's geometry over the kernel's shapes (the
// plan records its choices alone): a batched B is one grid z slice per
// batch, 40 columns in 16-wide tiles, 7 rows in one 16-row tile, one warp,
// 6 stages of a 16 x (64 + 8) A tile and a 64 x (16 + 8) B tile in halves.
// BATCHED: "launch":{"block":[32,1,1],"cluster":[1,1,1],"grid":[3,1,3],"smem":32256}
module attributes {sol.target = #sol.target<"h200">} {
func.func @static_manifest_batched(%x: tensor<3x7x64xbf16>, %w: tensor<3x64x40xbf16>) -> tensor<3x7x40xbf16> {
  %0 = sol.kernel @static_batched ins(%x, %w : tensor<3x7x64xbf16>, tensor<3x64x40xbf16>) -> tensor<3x7x40xbf16> attributes {plan = #sol.plan<path = mma_sync, tile = [16, 16, 64], warps = [1, 1], stages = 6, split_k = 1>} {
  ^bb0(%a: tensor<3x7x64xbf16>, %b: tensor<3x64x40xbf16>):
    %m = sol.matmul %a, %b : tensor<3x7x64xbf16>, tensor<3x64x40xbf16> -> tensor<3x7x40xbf16>
    sol.yield %m : tensor<3x7x40xbf16>
  }
  return %0 : tensor<3x7x40xbf16>
}
}

// -----

// A dynamic manifest (docs/dynamic-shapes.md, section 5): -1 for M in the
// shapes, the function's range, the cost at each report point and at the
// max, and one row per plan-table entry, naming its kernel and binaries
// <kernel>__m<m_min>_<m_max>, with its plan, its launch at m_max and the
// rule its grid follows M by (gemv: grid y stays 1 through tile[0] = 16;
// wgmma_tma: persistent grid x capped at the row's 32), its maps with A's
// rows -1, and its cost where one was priced at its m_max. No top-level
// binaries, launch, plan or maps (the sorted keys that would hold them are
// adjacent: cost_at/dynamic_dim, kernel/outputs/plans, program/target).
// DYN:      {"args":[{"dtype":"f16","name":"arg0","role":"input","shape":[-1,64]},
// DYN-SAME: {"dtype":"f16","name":"arg1","role":"input","shape":[128,64]},
// DYN-SAME: {"dtype":"f16","name":"arg2","role":"input","shape":[-1,128]},
// DYN-SAME: {"dtype":"f16","name":"out0","role":"output","shape":[-1,128]}],
// DYN-SAME: "cost":{"bound":"compute",{{[^}]*}}"tc_flops":67108864},
// DYN-SAME: "cost_at":[{"bound":"latency",{{[^}]*}}"m":1,{{[^}]*}}},{"bound":"latency",{{[^}]*}}"m":16,{{[^}]*}}},{"bound":"compute",{{[^}]*}}"m":4096,{{[^}]*}}}],"dynamic_dim":{"hints":[16],"max":4096,"min":1},"kernel":"dynamic_rows","outputs":[4],"plans":[{"cost":{"bound":"latency",{{[^}]*}}"tc_flops":262144},
// DYN-SAME: "cubin":"dynamic_rows__m1_16.cubin","kernel":"dynamic_rows__m1_16",
// DYN-SAME: "launch":{"block":[128,1,1],"cluster":[1,1,1],"grid":[32,1,1],"grid_rows":{"axis":1,"elements_per_block":16,"elements_per_dim":1,"max":0,"times":1},"smem":0},
// DYN-SAME: "m_max":16,"m_min":1,"plan":{"cluster":1,"path":"gemv",{{[^}]*}}},"ptx":"dynamic_rows__m1_16.ptx"},
// DYN-SAME: {"cost":{"bound":"compute",{{[^}]*}}"tc_flops":67108864},
// DYN-SAME: "cubin":"dynamic_rows__m17_4096.cubin","kernel":"dynamic_rows__m17_4096",
// DYN-SAME: "launch":{"block":[384,1,1],"cluster":[1,1,1],"grid":[32,1,1],"grid_rows":{"axis":0,"elements_per_block":128,"elements_per_dim":1,"max":32,"times":1},"smem":197728},
// DYN-SAME: "m_max":4096,"m_min":17,"plan":{"cluster":1,"path":"wgmma_tma",{{[^}]*}}},"ptx":"dynamic_rows__m17_4096.ptx",
// DYN-SAME: "tensor_maps":[{"arg":0,"box":[64,128],"dims":[64,-1],"dtype":"f16",{{[^}]*}}},{"arg":1,"box":[64,128],"dims":[64,128],
// DYN-SAME: "program":[{"index":0,"op":"arg"},{"index":1,"op":"arg"},{"index":2,"op":"arg"},
// DYN-SAME: {"dtype":"f16","op":"matmul","operands":[0,1],"shape":[-1,128],"transpose_b":true},
// DYN-SAME: {"dtype":"f16","op":"add","operands":[3,2],"shape":[-1,128]}],"target":{

// AT-LABEL: == dynamic_rows@M=1
// AT:       dim:      M = 1, plans row 1..16 (kernel dynamic_rows__m1_16)
// AT-NEXT:  launch:   grid [32, 1, 1] block [128, 1, 1]
// AT-LABEL: == dynamic_rows@M=16
// AT:       launch:   grid [32, 1, 1] block [128, 1, 1]
// AT-LABEL: == dynamic_rows@M=17
// AT:       dim:      M = 17, plans row 17..4096 (kernel dynamic_rows__m17_4096)
// AT-NEXT:  launch:   grid [1, 1, 1] block [384, 1, 1] smem 197728 B
// AT-NEXT:  tma 0:    arg 0 dims [64, 17] box [64, 128]
// AT-NEXT:  tma 1:    arg 1 dims [64, 128] box [64, 128]
// AT-LABEL: == dynamic_rows@M=200
// AT:       launch:   grid [2, 1, 1]
// AT-NEXT:  tma 0:    arg 0 dims [64, 200]
// AT-LABEL: == dynamic_rows@M=4096
// AT:       launch:   grid [32, 1, 1]
// AT-NEXT:  tma 0:    arg 0 dims [64, 4096]
module attributes {sol.target = #sol.target<"h200">} {
func.func @dynamic_manifest_rows(%x: tensor<?x64xf16>, %w: tensor<128x64xf16>, %r: tensor<?x128xf16>) -> tensor<?x128xf16> attributes {sol.dim_range = #sol.dim_range<min = 1, max = 4096, hints = [16]>} {
  %0 = sol.kernel @dynamic_rows ins(%x, %w, %r : tensor<?x64xf16>, tensor<128x64xf16>, tensor<?x128xf16>) -> tensor<?x128xf16> attributes {
    cost = #sol.cost<bound = compute, tc_flops = 67108864, ew_flops = 524288, bytes = 2113536, intensity = 32.0, balance = 206.0, t_compute_us = 0.07, t_memory_us = 0.44, t_ideal_us = 0.44, t_pred_us = 3.5, sol_pred = 0.13, limiter = hbm>,
    costs = [#sol.cost_point<m = 1, cost = #sol.cost<bound = latency, tc_flops = 16384, ew_flops = 128, bytes = 16896, intensity = 1.0, balance = 206.0, t_compute_us = 0.001, t_memory_us = 0.004, t_ideal_us = 0.004, t_pred_us = 2.5, sol_pred = 0.002, limiter = launch>>,
             #sol.cost_point<m = 16, cost = #sol.cost<bound = latency, tc_flops = 262144, ew_flops = 2048, bytes = 24576, intensity = 10.7, balance = 206.0, t_compute_us = 0.001, t_memory_us = 0.005, t_ideal_us = 0.005, t_pred_us = 2.6, sol_pred = 0.002, limiter = launch>>,
             #sol.cost_point<m = 4096, cost = #sol.cost<bound = compute, tc_flops = 67108864, ew_flops = 524288, bytes = 2113536, intensity = 32.0, balance = 206.0, t_compute_us = 0.07, t_memory_us = 0.44, t_ideal_us = 0.44, t_pred_us = 3.5, sol_pred = 0.13, limiter = hbm>>],
    plans = [#sol.plan_entry<m_min = 1, m_max = 16, plan = #sol.plan<path = gemv, tile = [16, 4, 8], warps = [1, 4], stages = 1, split_k = 1>>,
             #sol.plan_entry<m_min = 17, m_max = 4096, plan = #sol.plan<path = wgmma_tma, tile = [128, 128, 64], warps = [2, 1], stages = 6, split_k = 1>>]} {
  ^bb0(%a: tensor<?x64xf16>, %b: tensor<128x64xf16>, %c: tensor<?x128xf16>):
    %m = sol.matmul %a, %b transpose_b : tensor<?x64xf16>, tensor<128x64xf16> -> tensor<?x128xf16>
    %s = sol.add %m, %c : tensor<?x128xf16>, tensor<?x128xf16> -> tensor<?x128xf16>
    sol.yield %s : tensor<?x128xf16>
  }
  return %0 : tensor<?x128xf16>
}
}
