// RUN: sol-opt %s --split-input-file --sol-attach-nvvm-target | FileCheck %s
// RUN: sol-opt %s --split-input-file --sol-attach-nvvm-target=chip=sm_80 | FileCheck %s --check-prefix=OVERRIDE
// RUN: not sol-opt %s --split-input-file --sol-attach-nvvm-target=chip=sm_89a 2>&1 | FileCheck %s --check-prefix=BAD-CHIP

// The chip comes from the module's #sol.target, with PTX ISA 8.0 (LLVM's
// default 6.0 cannot target sm_90), or the chip's own minimum where that is
// later.
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

// -----

// A module whose code needs a later PTX than the chip's (mma.sync's fp8
// form: 8.4) says so in sol.min_ptx_version, and gets the larger; its
// neighbour keeps the chip's. A Blackwell module asking for less keeps 8.6.
// CHECK-LABEL: gpu.module @fp8_mma [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx84">]
// CHECK-LABEL: gpu.module @plain [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx80">]
module attributes {gpu.container_module, sol.target = #sol.target<"l40s">} {
  gpu.module @fp8_mma attributes {sol.min_ptx_version = 84 : i64} {
  }
  gpu.module @plain {
  }
}

// -----

// CHECK-LABEL: gpu.module @b200_asks_less [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">]
module attributes {gpu.container_module, sol.target = #sol.target<"b200">} {
  gpu.module @b200_asks_less attributes {sol.min_ptx_version = 84 : i64} {
  }
}

// -----

// Blackwell needs PTX 8.6: with 8.0 LLVM stopped with "PTX version 8.0 does
// not support target 'sm_100a'".
// CHECK-LABEL: gpu.module @b200 [#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">]
module attributes {gpu.container_module, sol.target = #sol.target<"b200">} {
  gpu.module @b200 {
  }
}

// An override LLVM does not know is refused (the #sol.target's chip was
// checked when it was built).
// BAD-CHIP: error: sol-attach-nvvm-target: chip 'sm_89a' is not a processor LLVM's NVPTX backend knows (sm_80, sm_90a, sm_100a, ...)
