// RUN: sol-opt %s --split-input-file --sol-attach-nvvm-target | FileCheck %s
// RUN: sol-opt %s --split-input-file --sol-attach-nvvm-target=chip=sm_80 | FileCheck %s --check-prefix=OVERRIDE

// The chip comes from the module's #sol.target, with PTX ISA 8.0 (LLVM's
// default 6.0 cannot target sm_90).
// CHECK-LABEL: gpu.module @k [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// OVERRIDE-LABEL: gpu.module @k [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
module attributes {gpu.container_module, sol.target = #sol.target<"h200">} {
  gpu.module @k {
  }
}

// -----

// An A100 target compiles for sm_80.
// CHECK-LABEL: gpu.module @a100 [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
module attributes {gpu.container_module, sol.target = #sol.target<"a100-80gb">} {
  gpu.module @a100 {
  }
}
