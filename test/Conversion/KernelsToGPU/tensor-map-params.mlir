// RUN: sol-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(sol-tensor-map-params))' -verify-diagnostics | FileCheck %s

// A wgmma_tma kernel's last `sol.tensor_maps` parameters are its A and B
// tensor maps: they become 128-byte, 64-byte-aligned by-value grid
// constants.
// CHECK-LABEL: llvm.func @tma_kernel
//  CHECK-SAME:   (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr,
//  CHECK-SAME:   %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant},
//  CHECK-SAME:   %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant})
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @tma_kernel(%a: !llvm.ptr, %out: !llvm.ptr, %mapA: !llvm.ptr, %mapB: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, sol.tensor_maps = 2 : i64, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>} {
      llvm.return
    }
  }
}

// -----

// Other paths take no maps: their parameters stay plain pointers.
// CHECK-LABEL: llvm.func @mma_kernel
//  CHECK-SAME:   (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes
//   CHECK-NOT:   grid_constant
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @mma_kernel(%a: !llvm.ptr, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, sol.plan = #sol.plan<path = mma_sync, tile = [16, 16, 64], warps = [1, 1], stages = 6, split_k = 1>} {
      llvm.return
    }
  }
}

// -----

// The ABI puts the maps last; a kernel with fewer parameters than maps
// cannot have them.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{sol-tensor-map-params: a wgmma_tma kernel ends with its 2 tensor-map parameters; @one_param has 1 parameter(s)}}
    llvm.func @one_param(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, sol.tensor_maps = 2 : i64, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>} {
      llvm.return
    }
  }
}

// -----

// A map parameter is the pointer the generator's !llvm.ptr lowers to.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{sol-tensor-map-params: parameter 1 of @int_param is not the pointer a tensor map lowers to}}
    llvm.func @int_param(%a: !llvm.ptr, %b: i64, %c: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, sol.tensor_maps = 2 : i64, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>} {
      llvm.return
    }
  }
}

// -----

// Sibling matmuls: A's map and one per weight, three maps.
// CHECK-LABEL: llvm.func @sibling_kernel
//  CHECK-SAME:   (%{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr,
//  CHECK-SAME:   %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant},
//  CHECK-SAME:   %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant},
//  CHECK-SAME:   %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant})
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @sibling_kernel(%a: !llvm.ptr, %out: !llvm.ptr, %mapA: !llvm.ptr, %mapB1: !llvm.ptr, %mapB2: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, sol.tensor_maps = 3 : i64, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 192, 64], warps = [1, 1], stages = 5, split_k = 1, cluster = 1, schedule = pingpong>} {
      llvm.return
    }
  }
}

// -----

// The generator says how many maps a kernel takes; without it the pass
// cannot tell maps from buffers.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{sol-tensor-map-params: the wgmma_tma kernel @unsaid does not say how many tensor maps it takes ('sol.tensor_maps')}}
    llvm.func @unsaid(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>} {
      llvm.return
    }
  }
}

// -----

// A dynamic kernel (a row of a plan table, 'sol.plans') takes the value of
// its dynamic dim after its maps: the maps are the parameters before it.
// CHECK-LABEL: llvm.func @dynamic_tma_kernel
//  CHECK-SAME:   (%{{[^:]*}}: !llvm.ptr, %{{[^:]*}}: !llvm.ptr,
//  CHECK-SAME:   %{{[^:]*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant},
//  CHECK-SAME:   %{{[^:]*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant},
//  CHECK-SAME:   %{{[^:]*}}: i64)
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @dynamic_tma_kernel(%a: !llvm.ptr, %out: !llvm.ptr, %mapA: !llvm.ptr, %mapB: !llvm.ptr, %dim: i64) attributes {gpu.kernel, nvvm.kernel, sol.tensor_maps = 2 : i64, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
      llvm.return
    }
  }
}

// -----

// The dynamic dim's value is an i64, after the maps.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{sol-tensor-map-params: a dynamic kernel ends with the i64 value of its dynamic dim; @dynamic_no_dim does not}}
    llvm.func @dynamic_no_dim(%a: !llvm.ptr, %out: !llvm.ptr, %mapA: !llvm.ptr, %mapB: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, sol.tensor_maps = 2 : i64, sol.plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>, sol.plans = [#sol.plan_entry<m_min = 1, m_max = 8192, plan = #sol.plan<path = wgmma_tma, tile = [128, 256, 64], warps = [2, 1], stages = 4, split_k = 1>>]} {
      llvm.return
    }
  }
}
