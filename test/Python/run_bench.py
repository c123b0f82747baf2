# The benchmark's own logic without a GPU (bench/test_run_bench.py): manifest
# binding, the float64 references, the tolerance rule, the results JSON and
# the roofline, and its launcher's driver calls (tensor maps, cluster
# launches) on the fake libcuda of the gtests, which must not be skipped.
# Without torch its torch cases are skipped (unittest's skip reason: "torch
# missing"); the rest still runs, so this test has no REQUIRES.
# RUN: %sol_python %sol_src_root/bench/test_run_bench.py 2>&1 | FileCheck %s
# CHECK-NOT: no fake CUDA driver
# CHECK: Ran {{[0-9]+}} tests
# CHECK-NOT: FAILED
# CHECK: {{^OK}}
