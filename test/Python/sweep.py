# Issue 19's shape sweep without a GPU (bench/test_sweep.py): the report's
# classes, ratios, cost-model error and failed checks on synthetic results;
# the shape table, the part split and each epilogue's sol module, every one
# of which sol-opt must parse (one also through --sol-to-ptx); the peers'
# torch code against the float64 reference and the measuring loop on the
# CPU with a fake sol (a wrong kernel's rows fail untimed, resume, budget);
# the dry run compiling one module through the C API. Without torch its
# torch cases are skipped ("torch missing"); the rest still runs.
# RUN: SOL_OPT=%sol_tools_dir/sol-opt %sol_python %sol_src_root/bench/test_sweep.py 2>&1 | FileCheck %s
# CHECK-NOT: no SOL_OPT
# CHECK-NOT: libsol_capi missing
# CHECK: Ran {{[0-9]+}} tests
# CHECK-NOT: FAILED
# CHECK: {{^OK}}
