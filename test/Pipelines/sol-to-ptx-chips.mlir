// The chip decides the PTX version and which paths exist, before any file
// is written.
//
// Blackwell (b200, sm_100a) needs PTX 8.6: LLVM once stopped with "PTX
// version 8.0 does not support target 'sm_100a'" after the manifest was
// written. Now the kernel takes mma.sync (wgmma is sm_90a's alone) and
// ptxas assembles it:
// RUN: rm -rf %t.b200 && sol-opt %s --sol-to-ptx=out-dir=%t.b200 | FileCheck %s --check-prefix=B200
// RUN: FileCheck %s --check-prefix=B200-PTX < %t.b200/mm_matmul_0.ptx
// RUN: FileCheck %s --check-prefix=B200-PLAN < %t.b200/mm_matmul_0.json
// RUN: test -s %t.b200/mm_matmul_0.cubin
//
// B200: gpu.binary @mm_matmul_0 [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">
// B200-PTX: .version 8.6
// B200-PTX: .target sm_100a
// B200-PTX: mma.sync.aligned.m16n8k16
// B200-PLAN: "path": "mma_sync"
//
// Ada (l40s, sm_89) runs fp8 on mma.sync's m16n8k32, which needs PTX 8.4:
// that kernel's module asks for it (the f16 kernel beside it keeps 8.0) and
// ptxas assembles it for sm_89.
// RUN: rm -rf %t.l40s && sol-opt %S/Inputs/fp8-and-f16.mlir --sol-to-ptx=out-dir=%t.l40s -o /dev/null
// RUN: FileCheck %s --check-prefix=L40S-FP8 < %t.l40s/qmm_matmul_0.ptx
// RUN: FileCheck %s --check-prefix=L40S-F16 < %t.l40s/mm_matmul_0.ptx
// RUN: test -s %t.l40s/qmm_matmul_0.cubin
// L40S-FP8: .version 8.4
// L40S-FP8: .target sm_89
// L40S-FP8: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// L40S-F16: .version 8.0
// L40S-F16: .target sm_89
// L40S-F16: mma.sync.aligned.m16n8k16
// The paths that convert codes in registers (gemv, swap_ab) use
// cvt.rn.f16x2.e4m3x2, which LLVM selects on sm_89 from PTX 8.1 only (at
// 8.0 it stopped with "Cannot select: intrinsic llvm.nvvm.e4m3x2.to.f16x2.rn",
// a sol-fuzz finding):
// RUN: FileCheck %s --check-prefix=L40S-CVT < %t.l40s/gemv_matmul_0.ptx
// RUN: FileCheck %s --check-prefix=L40S-CVT < %t.l40s/wo_matmul_0.ptx
// L40S-CVT: .version 8.1
// L40S-CVT: .target sm_89
// L40S-CVT: cvt.rn.f16x2.e4m3x2
//
// A Volta target (sm_70) has no tensor-core path sol generates: sol-tile
// refuses the f16 matmul with the chip's name, where LLVM once stopped with
// "Cannot select: intrinsic llvm.nvvm.mma.m16n8k16", and nothing is written:
// RUN: sed -e 's/#sol.target<"b200">/#sol.target<name = "v100", chip = "sm_70", sm_count = 80, clock_mhz = 1530, f16_tflops = 125.0, bf16_tflops = 0.0, tf32_tflops = 0.0, fp8_tflops = 0.0, f32_simt_tflops = 15.7, hbm_gbps = 900.0, l2_gbps = 3000.0, l2_bytes = 6291456, smem_per_sm_bytes = 98304, regs_per_sm = 65536, launch_us = 3.2, mma_efficiency = 0.7, hbm_efficiency = 0.9>/' %s > %t.sm70.mlir
// RUN: rm -rf %t.sm70 && not sol-opt %t.sm70.mlir --sol-to-ptx=out-dir=%t.sm70 2>&1 | FileCheck %s --check-prefix=SM70
// RUN: not ls %t.sm70
//
// SM70: sm70.mlir:[[@LINE+9]]:10: error: sol-tile: cannot plan kernel @mm_matmul_0: no path for f16 matmuls on sm_70: mma.sync needs sm_80 or newer, wgmma sm_90a
//
// A chip LLVM does not know is refused where the target is written:
// RUN: sed -e 's/#sol.target<"b200">/#sol.target<name = "x", chip = "sm_89a", sm_count = 128, clock_mhz = 2520, f16_tflops = 165.2, bf16_tflops = 165.2, tf32_tflops = 82.6, fp8_tflops = 330.3, f32_simt_tflops = 82.6, hbm_gbps = 1008.0, l2_gbps = 5000.0, l2_bytes = 75497472, smem_per_sm_bytes = 102400, regs_per_sm = 65536, launch_us = 2.5, mma_efficiency = 0.6, hbm_efficiency = 0.85>/' %s > %t.sm89a.mlir
// RUN: rm -rf %t.sm89a && not sol-opt %t.sm89a.mlir --sol-to-ptx=out-dir=%t.sm89a 2>&1 | FileCheck %s --check-prefix=SM89A
// RUN: not ls %t.sm89a
// SM89A: sm89a.mlir:[[@LINE+1]]:44: error: #sol.target: chip 'sm_89a' is not a processor LLVM's NVPTX backend knows
module attributes {sol.target = #sol.target<"b200">} {
  func.func @mm(%x: tensor<128x64xf16>, %w: tensor<128x64xf16>) -> tensor<128x128xf16> {
    %y = sol.matmul %x, %w transpose_b : tensor<128x64xf16>, tensor<128x64xf16> -> tensor<128x128xf16>
    return %y : tensor<128x128xf16>
  }
}
