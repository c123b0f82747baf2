# Issue 20's fp8 benchmark without a GPU (bench/test_fp8.py): its float64
# reference against torch._scaled_mm on the CPU and against the bf16 side's
# dequantised operands, at odd shapes, with a per-tensor weight scale in
# place of the per-channel ones caught; the block-wise reference against
# a block-by-block sum of scaled partials; the
# activation codes spanning e4m3's range; every workload's sol module
# through sol-opt's parser and the C API.
# REQUIRES: torch
# RUN: SOL_OPT=%sol_tools_dir/sol-opt %sol_python %sol_src_root/bench/test_fp8.py 2>&1 | FileCheck %s
# CHECK-NOT: no SOL_OPT
# CHECK-NOT: libsol_capi missing
# CHECK: Ran 11 tests
# CHECK-NOT: FAILED
# CHECK: {{^OK$}}
