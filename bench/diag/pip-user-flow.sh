#!/usr/bin/env bash
# 2026-11-30, third session: the user's flow on the GPU machine (no LLVM, no
# network): the self-contained libsol_capi.so into the package, `pip install`
# the package, then torch.compile(model, backend="sol") with no sol import
# (the torch_dynamo_backends entry point registers the backend). Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
mkdir -p python/sol/_lib
xz -dc .capi/libsol_capi.so.xz > python/sol/_lib/libsol_capi.so
python3 -m pip install --no-build-isolation --no-deps --target /tmp/solpkg ./python 2>&1 | tail -2
cd /tmp && PYTHONPATH=/tmp/solpkg CUDA_HOME=${CUDA_HOME:-/usr/local/cuda} SOL_CACHE_DIR=/tmp/solcache python3 - <<'PY'
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2560, 10240), nn.GELU(approximate="tanh"))
model = model.cuda().half().eval()
x = torch.randn(4096, 2560, device="cuda", dtype=torch.half)
compiled = torch.compile(model, backend="sol")
with torch.no_grad():
    got, want = compiled(x), model(x)
err = (got.float() - want.float()).abs().max().item()
close = torch.allclose(got.float(), want.float(), atol=2e-2, rtol=2e-2)
import sol
import sol.torch_backend as backend
print(f"pip-installed sol {sol.version()} from {sol.__file__}: matches eager "
      f"{close} (max abs diff {err:.2e}); partitions "
      f"{[p.status for r in backend.history for p in r.partitions]}")
PY
