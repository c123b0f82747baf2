# The benchmark's own logic without a GPU (bench/test_run_bench.py): manifest
# binding, the float64 references, the tolerance rule, the results JSON and
# the roofline, its sol launch (sol.Kernel over the C API's launch library:
# tensor maps, cluster launches) on the fake libcuda of the gtests, and the
# real bundle scripts/bench-bundle.sh builds from the freshly built sol-opt:
# none of these may be skipped. Without torch its torch cases are skipped
# (unittest's skip reason: "torch missing"); the rest still runs, so this
# test has no REQUIRES.
# RUN: rm -rf %t && SOL_OPT=%sol_tools_dir/sol-opt %sol_src_root/scripts/bench-bundle.sh %t > %t.log
# RUN: SOL_BENCH_BUNDLE=%t %sol_python %sol_src_root/bench/test_run_bench.py 2>&1 | FileCheck %s
# CHECK-NOT: no fake CUDA driver
# CHECK-NOT: no bundle
# CHECK: Ran {{[0-9]+}} tests
# CHECK-NOT: FAILED
# CHECK: {{^OK}}
