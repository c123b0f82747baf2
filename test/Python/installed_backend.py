# The package as a user installs it (pip install ./python): no sol import
# before torch.compile(model, backend="sol"); dynamo finds the backend through
# the torch_dynamo_backends entry point, and loading it must not register the
# name a second time (dynamo asserts on duplicates). Run in the installed
# copy only (PYTHONPATH is the --target folder, not the source tree); the
# kernels compile for real and the reference launcher stands in for the GPU.
# pip's exit status counts (its output shows when it fails); it builds from a
# copy of python/ without sol/_lib, so the source tree gets no build/ or
# egg-info and the installed copy no library from there.
# REQUIRES: torch, setuptools
# RUN: rm -rf %t && mkdir -p %t
# RUN: cp -r %sol_src_root/python %t/src && rm -rf %t/src/sol/_lib %t/src/build
# RUN: %sol_python -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps --no-index --target %t/pkg %t/src
# RUN: env PYTHONPATH=%t/pkg SOL_CACHE_DIR=%t/cache %sol_python -u %s 2>&1 | FileCheck %s

import torch
import torch.nn as nn

import sol.reference  # the launcher only: sol.torch_backend stays unimported
import sys

# CHECK: backend registered before compile: False
print("backend registered before compile:",
      "sol.torch_backend" in sys.modules)

model = nn.Sequential(nn.Linear(64, 128), nn.GELU(approximate="tanh")).half()
x = torch.randn(8, 64).half()
compiled = torch.compile(model, backend="sol",
                         options={"launcher": sol.reference.reference_launcher})
with torch.no_grad():
    got, want = compiled(x), model(x)

import sol.inductor as inductor
import sol.torch_backend as backend

# The backend's default mode runs inside Inductor (sol.inductor keeps a
# report per graph: each region sol took, or why a matmul stayed).
# CHECK: installed from {{.*}}pkg{{.*}}: matches eager True, sol regions ['sol']
print(f"installed from {backend.__file__}: matches eager "
      f"{torch.allclose(got.float(), want.float(), atol=2e-2, rtol=2e-2)}, "
      f"sol regions {[r.status for g in inductor.history for r in g.regions]}")
