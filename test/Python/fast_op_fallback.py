# Where sol::fused's C++ kernel cannot be built (here: no compiler at CXX),
# the reason is logged once and the Python implementation serves every call:
# a model still compiles and matches eager.
# REQUIRES: torch
# RUN: rm -rf %t && env CXX=/nonexistent/c++ SOL_FAST_OP=CPU SOL_CACHE_DIR=%t %sol_python -u %s 2>&1 | FileCheck %s

import logging

import torch
import torch._dynamo

logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
logging.getLogger("torch").setLevel(logging.ERROR)

import sol.fast_op as fast_op  # noqa: E402
import sol.inductor as inductor  # noqa: E402
import sol.torch_backend  # noqa: E402,F401  (registers backend="sol")

# CHECK: sol: sol::fused runs in Python: its C++ kernel did not build or load: RuntimeError: /nonexistent/c++ failed
# CHECK: installed for: [], held 0
print(f"installed for: {sorted(inductor._FAST_KEYS)}, held {fast_op.count()}")

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(24, 40), torch.nn.GELU(),
                            torch.nn.Linear(40, 24))
compiled = torch.compile(model, backend="sol", dynamic=True)
with torch.no_grad():
    ok = all(torch.allclose(compiled(x), model(x), rtol=1e-4, atol=1e-4)
             for x in (torch.randn(5, 24), torch.randn(9, 24)))
# CHECK: == without the C++ kernel: matches eager True, sol regions 1
print(f"== without the C++ kernel: matches eager {ok}, sol regions "
      f"{sum(r.status == 'sol' for g in inductor.history for r in g.regions)}")
