# bench/tp_llama.py on the CPU: two processes under torchrun (gloo), a tiny
# Llama-family model tensor-parallel (column-parallel q/k/v and gate/up,
# row-parallel o_proj and down with all-reduces), compiled with
# torch.compile(backend="sol") in each process (sol's kernels compiled for
# real, "launched" by the reference launcher); every rank's logits against
# the unsharded float32 eager model of the same weights, for two prefill
# shapes from one graph and a decode step against a static cache.
# REQUIRES: torch
# RUN: rm -rf %t && mkdir -p %t && cd %t && SOL_CACHE_DIR=%t/cache timeout 900 %sol_python -m torch.distributed.run --standalone --nproc-per-node 2 %S/../../bench/tp_llama.py --device cpu --tiny --impls eager,sol --out %t/tp.json > %t/log 2>&1; echo "rc=$?" >> %t/log
# RUN: %sol_python %s %t/tp.json %t/log | FileCheck %s

import json
import sys

log = open(sys.argv[2]).read()
print(log.strip().splitlines()[-1])
rows = json.load(open(sys.argv[1]))["rows"]
for r in rows:
    print(f"{r['impl']} {r['phase']} {r['batch']}x{r['tokens']}: world "
          f"{r['world']}, ok on every rank {r['ok_all_ranks']}, "
          f"rel_err < 1e-4 {r['rel_err'] < 1e-4}, sol share "
          f"{r.get('sol_flop_share')}")

# CHECK: rc=0
# CHECK: eager prefill 2x7: world 2, ok on every rank True, rel_err < 1e-4 True, sol share None
# CHECK: eager prefill 3x5: world 2, ok on every rank True, rel_err < 1e-4 True, sol share None
# CHECK: eager decode 2x1: world 2, ok on every rank True, rel_err < 1e-4 True, sol share None
# CHECK: sol prefill 2x7: world 2, ok on every rank True, rel_err < 1e-4 True, sol share 1.0
# CHECK: sol prefill 3x5: world 2, ok on every rank True, rel_err < 1e-4 True, sol share 1.0
# CHECK: sol decode 2x1: world 2, ok on every rank True, rel_err < 1e-4 True, sol share 1.0
