#!/usr/bin/env bash
# Smoke test of the wheel as a user installs it (CI's wheel step; also the
# first thing to run on the GPU box after `pip install dist/sol-*.whl`):
#
#   scripts/check-wheel.sh [WHEEL]        (default: the one dist/sol-*.whl)
#
# Installs WHEEL into a fresh virtual environment (--system-site-packages, so
# that a system torch is visible; no index: the wheel needs nothing else),
# then, from outside the repository (a temporary directory, no PYTHONPATH,
# no SOL_CAPI_LIB):
#   - `import sol` resolves to the venv's copy, and its library to the
#     wheel's sol/_lib/libsol_capi.so;
#   - sol.compile(examples/oproj_residual.mlir) prints a cost report;
#   - where torch is importable: torch.compile(model, backend="sol") finds
#     the backend through the wheel's torch_dynamo_backends entry point
#     (sol.torch_backend not imported first) and the compiled module matches
#     eager (sol's reference launcher stands in for the GPU here; on a GPU
#     machine, SOL_WHEEL_GPU=1 launches the real kernels on CUDA tensors).
# Prints one line "check-wheel: PASS ..." or "check-wheel: FAIL ..." last and
# exits 0 only on PASS. PYTHON picks the interpreter (python3).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
wheel="${1:-}"
if [ -z "$wheel" ]; then
  wheels=("$root"/dist/sol-*.whl)
  [ ${#wheels[@]} = 1 ] && [ -f "${wheels[0]}" ] ||
    { echo "check-wheel: FAIL: expected one dist/sol-*.whl (scripts/build-wheel.sh)"; exit 1; }
  wheel="${wheels[0]}"
fi
wheel="$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "check-wheel: FAIL: $*"; exit 1; }

"$PYTHON" -m venv --system-site-packages "$work/venv" || fail "python3 -m venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --no-index --no-deps "$wheel" || fail "pip install $(basename "$wheel")"

cd "$work"
env -u PYTHONPATH -u SOL_CAPI_LIB -u SOL_CACHE_DIR SOL_CACHE_DIR="$work/cache" \
  "$work/venv/bin/python" - "$root/examples/oproj_residual.mlir" "$work/venv" <<'PY'
import os, sys, sysconfig

example, venv = sys.argv[1], os.path.realpath(sys.argv[2])
site = os.path.realpath(sysconfig.get_paths()["purelib"])

import sol
import sol._capi

print("sol.__file__:", sol.__file__)
if not os.path.realpath(sol.__file__).startswith(site + os.sep):
    sys.exit(f"sol resolves to {sol.__file__}, not the venv's {site}")
sol._capi.lib()
print("library:", sol._capi._lib_path)
if os.path.realpath(sol._capi._lib_path) != os.path.join(
        os.path.dirname(os.path.realpath(sol.__file__)), "_lib", "libsol_capi.so"):
    sys.exit(f"the library is {sol._capi._lib_path}, not the wheel's")
print("version:", sol.version())
compilation = sol.compile(open(example).read())
print(compilation.cost_report())
if not compilation.kernels or "SOL_pred" not in compilation.cost_report():
    sys.exit("sol.compile gave no kernel or no cost report")

try:
    import torch
except ImportError:
    print("torch not importable in this venv: torch.compile check skipped")
    open("checked", "w").write("import sol, sol.compile; no torch: torch.compile skipped")
    sys.exit(0)
import torch.nn as nn
from torch._dynamo.backends.registry import lookup_backend

if "sol.torch_backend" in sys.modules:
    sys.exit("sol.torch_backend was imported before torch.compile")
backend = lookup_backend("sol")
module = sys.modules[backend.__module__]
print(f"torch {torch.__version__}: backend 'sol' is {backend.__module__}."
      f"{backend.__name__} from {module.__file__}")
if not os.path.realpath(module.__file__).startswith(site + os.sep):
    sys.exit("the backend does not come from the wheel")
gpu = os.environ.get("SOL_WHEEL_GPU") == "1"
model = nn.Sequential(nn.Linear(64, 128), nn.GELU(approximate="tanh")).half()
x = torch.randn(8, 64).half()
options = {}
if gpu:
    model, x = model.cuda(), x.cuda()
else:
    import sol.reference
    options["launcher"] = sol.reference.reference_launcher
compiled = torch.compile(model, backend="sol", options=options)
with torch.no_grad():
    got, want = compiled(x), model(x)
ok = torch.allclose(got.float(), want.float(), atol=2e-2, rtol=2e-2)
try:  # the backend's report (sol.inductor in its default mode)
    import sol.inductor
    statuses = [r.status for g in sol.inductor.history for r in g.regions]
except Exception:
    statuses = "?"
print(f"torch.compile(backend='sol') on {'cuda' if gpu else 'cpu (reference launcher)'}:"
      f" matches eager {ok}, sol regions {statuses}")
if not ok:
    sys.exit("the compiled module does not match eager")
open("checked", "w").write(
    f"import sol, sol.compile, torch.compile(backend='sol') on {'cuda' if gpu else 'cpu'}")
PY
rc=$?
[ $rc = 0 ] || fail "smoke test (above) exited $rc"
echo "check-wheel: PASS: $(basename "$wheel") in a fresh venv: $(cat "$work/checked")"
