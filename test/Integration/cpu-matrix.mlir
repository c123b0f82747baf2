// The correctness matrix on the CPU: every matmul epilogue pattern and every
// elementwise op, f16/bf16/f32, on odd shapes (M = 1, 7, 33; N and K of 24,
// 40, 77, 129). Each case goes the whole way to PTX, and every PTX is
// assembled by ptxas for sm_90a (sol-write-binaries fails on a ptxas error);
// the same kernels are built for the CPU and run by sol-run's host backend
// on fresh random inputs (a new seed each run, printed) against its float64
// reference of the sol program.
//
// RUN: python3 %sol_src_root/scripts/gen-matrix.py --profile=cpu %t.mlir | FileCheck %s --check-prefix=GEN
// RUN: rm -rf %t.d && sol-opt %t.mlir --sol-to-ptx=out-dir=%t.d -o /dev/null
// RUN: ls %t.d | grep -c '\.cubin$' | FileCheck %s --check-prefix=CUBINS
// RUN: env SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/build-cpu-kernels.sh %t.mlir %t.d > /dev/null
// RUN: ls %t.d/*.json > %t.list
// RUN: sh -c '%sol_src_root/scripts/check-parallel.sh %sol_tools_dir/sol-run %t.list %t.log "cpu matrix" --backend=host --lib=%t.d/kernels.so --seed=$(od -An -N4 -tu4 /dev/urandom | tr -d " ")' | FileCheck %s
//
// The TMA path on the same odd shapes (7 and 33 rows, 24 and 77 columns, K
// = 40: partial boxes on every side), with 2-CTA clusters, to PTX and
// through ptxas (gen-matrix's --only and --suffix pick and rename them),
// with cooperative and with ping-pong consumers:
// RUN: python3 %sol_src_root/scripts/gen-matrix.py --profile=cpu --suffix=_tma --only='^(mm|mm_residual|mm_bias_gelu_tanh|mm_two_outputs|mm_to_f32)_(f16|bf16)_(7|33)x(24x40|77x40)$' %t.tma.mlir | FileCheck %s --check-prefix=GENTMA
// RUN: rm -rf %t.tma && sol-opt %t.tma.mlir --sol-to-ptx="out-dir=%t.tma paths=wgmma_tma max-cluster=2 schedules=cooperative" -o /dev/null
// RUN: ls %t.tma | grep -c '_tma__.*\.cubin$' | FileCheck %s --check-prefix=CUBINSTMA
// RUN: cat %t.tma/*.json | FileCheck %s --check-prefix=TMAPLAN
// RUN: rm -rf %t.pp && sol-opt %t.tma.mlir --sol-to-ptx="out-dir=%t.pp paths=wgmma_tma max-cluster=2 schedules=pingpong" -o /dev/null
// RUN: ls %t.pp | grep -c '_tma__.*\.cubin$' | FileCheck %s --check-prefix=CUBINSTMA
// RUN: cat %t.pp/*.json | FileCheck %s --check-prefix=PPPLAN
// and with cooperative 256-row tiles:
// RUN: rm -rf %t.tall && sol-opt %t.tma.mlir --sol-to-ptx="out-dir=%t.tall paths=wgmma_tma tiles=256x128,256x160,256x192" -o /dev/null
// RUN: ls %t.tall | grep -c '_tma__.*\.cubin$' | FileCheck %s --check-prefix=CUBINSTMA
// RUN: cat %t.tall/*.json | FileCheck %s --check-prefix=TALLPLAN
//
// GENTMA: 20 cases
// CUBINSTMA: 20
// TMAPLAN: "path": "wgmma_tma"
// TMAPLAN: "tensor_maps": [
// PPPLAN: "path": "wgmma_tma"
// PPPLAN: "schedule": "pingpong"
// TALLPLAN: "schedule": "cooperative"
// TALLPLAN: "tile": [
// TALLPLAN-NEXT: 256,
//
// Sibling matmuls (mm_swiglu, mm_swiglu_bias and mm_swiglu_two_outputs at 129 rows: gate and up in one kernel) run
// above on the CPU; here every TMA tile sol-tile offers them, each width
// split between the two weights, to PTX and through ptxas (a ptxas error
// fails sol-write-binaries), each with one map for A and one per weight:
// RUN: python3 %sol_src_root/scripts/gen-matrix.py --profile=cpu --suffix=_sib --only='^mm_swiglu_(f16|bf16)_129x77x40$' %t.sib.mlir | FileCheck %s --check-prefix=GENSIB
// RUN: rm -rf %t.sib && sol-opt %t.sib.mlir --sol-to-ptx="out-dir=%t.sib/pp128 paths=wgmma_tma schedules=pingpong tiles=128x128" -o /dev/null
// RUN: sol-opt %t.sib.mlir --sol-to-ptx="out-dir=%t.sib/pp144 paths=wgmma_tma tiles=128x144" -o /dev/null
// RUN: sol-opt %t.sib.mlir --sol-to-ptx="out-dir=%t.sib/pp160 paths=wgmma_tma tiles=128x160" -o /dev/null
// RUN: sol-opt %t.sib.mlir --sol-to-ptx="out-dir=%t.sib/pp192 paths=wgmma_tma tiles=128x192" -o /dev/null
// RUN: sol-opt %t.sib.mlir --sol-to-ptx="out-dir=%t.sib/coop128 paths=wgmma_tma schedules=cooperative tiles=128x128" -o /dev/null
// RUN: sol-opt %t.sib.mlir --sol-to-ptx="out-dir=%t.sib/coop256 paths=wgmma_tma tiles=128x256" -o /dev/null
// RUN: ls %t.sib/*/*.cubin | wc -l | FileCheck %s --check-prefix=CUBINSSIB
// RUN: cat %t.sib/pp144/mm_swiglu_f16_129x77x40_sib__mm_swiglu_matmul_0.json | FileCheck %s --check-prefix=SIBMAPS
//
// GENSIB: 2 cases
// CUBINSSIB: 12
// SIBMAPS:      "tile": [
// SIBMAPS-NEXT:   128,
// SIBMAPS-NEXT:   144,
// SIBMAPS:      "tensor_maps": [
// SIBMAPS:        "arg": 0,
// SIBMAPS:        "box": [
// SIBMAPS-NEXT:     64,
// SIBMAPS-NEXT:     128
// SIBMAPS:        "arg": 1,
// SIBMAPS:        "box": [
// SIBMAPS-NEXT:     64,
// SIBMAPS-NEXT:     72
// SIBMAPS:        "arg": 2,
// SIBMAPS:        "box": [
// SIBMAPS-NEXT:     64,
// SIBMAPS-NEXT:     72
//
// GEN: 291 cases
// CUBINS: 357
// CHECK: cpu matrix: 357 passed, 0 failed
// CHECK-NOT: FAIL
