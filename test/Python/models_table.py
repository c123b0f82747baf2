# bench/models.py's table without a GPU (bench/test_models.py): each mode's
# sol row against its own Inductor row (plain, CUDA graphs), the median over
# rounds, a failed logits check marked, a mode not run left without a ratio.
# REQUIRES: torch, transformers
# RUN: %sol_python %sol_src_root/bench/test_models.py 2>&1 | FileCheck %s
# CHECK: Ran {{[0-9]+}} tests
# CHECK-NOT: FAILED
# CHECK: {{^OK}}
