# sol::fused's C++ kernel (sol/csrc/fused_op.cpp, built by sol/fast_op.py),
# installed here for the CPU key (SOL_FAST_OP=CPU) with a stand-in for the
# C API's launch entry points: C callbacks that wrap the pointers they get
# back into tensors of the manifest's shapes (M from the launch) and
# evaluate the kernel's manifest program. A call Python has resolved is
# then served by C++ alone (its outputs and workspace allocated there, each
# kernel launched through the raw entry point); everything else goes to
# sol::fused_py, the Python implementation. Checked against eager on fresh
# random data at odd shapes, with the launches counted by path.
# REQUIRES: torch
# RUN: rm -rf %t && SOL_FAST_OP=CPU SOL_CACHE_DIR=%t %sol_python -u %s 2>&1 | FileCheck %s

import ctypes
import logging
import os
import sys

import torch
import torch._dynamo
import torch.nn.functional as F

import sol.fast_op as fast_op
import sol.inductor as inductor
import sol.torch_backend  # noqa: F401  (registers backend="sol")
from sol.reference import _reference_raw

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from pointer_launch import SwiGLU, evaluate  # noqa: E402

logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
logging.getLogger("torch").setLevel(logging.ERROR)
torch.manual_seed(0)

# CHECK: installed for: ['CPU']
print("installed for:", sorted(inductor._FAST_KEYS))

counts = {"python": 0, "c++": 0, "tensors": 0}
fail_next = [False]






def tensor_launcher(kernel, tensors):
    counts["tensors"] += 1
    _reference_raw(kernel, tensors)


def bind(kernel, device):
    def launch(pointers, m):
        counts["python"] += 1
        evaluate(kernel, pointers, m)
    return launch


# The C API's two entry points' signatures (include/sol-c/SolCAPI.h).
LAUNCH_DIM = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                              ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t,
                              ctypes.c_int64, ctypes.c_void_p,
                              ctypes.POINTER(ctypes.c_void_p))
LAUNCH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                          ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t,
                          ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
kernels = {}


def raw_launch(handle, pointers, count, m, stream, error):
    if fail_next[0]:   # a launch the C API refuses
        fail_next[0] = False
        return 1
    counts["c++"] += 1
    kernel = kernels[handle]
    evaluate(kernel, [pointers[i] for i in range(count)],
             m if kernel.is_dynamic else None)
    return 0


launch_dim = LAUNCH_DIM(raw_launch)
launch_static = LAUNCH(lambda handle, pointers, count, stream, error:
                       raw_launch(handle, pointers, count, None, stream,
                                  error))


def raw_bind(kernel, device):
    handle = len(kernels) + 1
    kernels[handle] = kernel
    entry = launch_dim if kernel.is_dynamic else launch_static
    return ctypes.cast(entry, ctypes.c_void_p).value, handle


tensor_launcher.bind = bind
tensor_launcher.raw_bind = raw_bind
inductor.launchers["cpu_raw"] = tensor_launcher




class QKV(torch.nn.Module):
    """Three projections over one A, gathered into one call, with three
    outputs."""

    def __init__(self, d=24):
        super().__init__()
        self.q = torch.nn.Linear(d, d)
        self.k = torch.nn.Linear(d, 8)
        self.v = torch.nn.Linear(d, 8)

    def forward(self, x):
        return torch.cat([self.q(x), self.k(x) * 2.0, self.v(x)], -1)


def check(name, model, shapes, dynamic=True):
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="sol", dynamic=dynamic,
                             options={"launcher_name": "cpu_raw"})
    ok = True
    with torch.no_grad():
        for shape in shapes:
            for _ in range(2):   # the first call at these dims resolves it
                x = torch.randn(*shape)
                ok &= torch.allclose(compiled(x), model(x), rtol=1e-4,
                                     atol=1e-4)
    print(f"== {name}: matches eager {ok}, first calls in Python "
          f"{counts['python'] > 0}, repeats in C++ {counts['c++'] > 0}, "
          f"tensor launches {counts['tensors']}")
    counts.update({"python": 0, "c++": 0, "tensors": 0})
    return compiled


# Each shape's second call is C++'s: the SwiGLU's three kernels (gate, up
# with the product, down with the residual), the product in the workspace.
# CHECK: == swiglu: matches eager True, first calls in Python True, repeats in C++ True, tensor launches 0
check("swiglu", SwiGLU(), [(2, 5, 24), (1, 1, 24), (3, 11, 24)])
# CHECK: == qkv: matches eager True, first calls in Python True, repeats in C++ True, tensor launches 0
check("qkv", QKV(), [(7, 24), (1, 24), (13, 24)])
# CHECK: == static_m: matches eager True, first calls in Python True, repeats in C++ True, tensor launches 0
check("static_m", SwiGLU(16, 24), [(2, 3, 16)], dynamic=False)

# Only C++ once resolved: a third call at resolved dims launches nothing in
# Python.
model = SwiGLU()
compiled = check("resolve", model, [(4, 6, 24)])
with torch.no_grad():
    x = torch.randn(4, 6, 24)
    same = torch.allclose(compiled(x), model(x), rtol=1e-4, atol=1e-4)
# CHECK: == only c++: matches True, python launches 0, c++ launches 3
print(f"== only c++: matches {same}, python launches {counts['python']}, "
      f"c++ launches {counts['c++']}")
counts.update({"python": 0, "c++": 0, "tensors": 0})

# A non-contiguous input: C++ declines the call, Python's general path runs
# it (flattened to contiguous first), the same result.
text = next(t for t, _ in inductor._runners if "cpu_raw" in t and
            inductor._parse_spec(t)["roles"][:3] == ["a", "b", "b"] and
            "tensor<40x24xf32>" in t)
gate, up, down = (torch.randn(40, 24), torch.randn(40, 24),
                  torch.randn(24, 40))


def operands(a):
    weights = iter([gate, up, down])
    return [a if role in ("a", "rows") else next(weights)
            for role in inductor._parse_spec(text)["roles"]]


with torch.no_grad():
    op = torch.ops.sol.fused.default
    a = torch.randn(24, 10).t()   # [10, 24], not contiguous
    dense = op(operands(a.contiguous()), [10, 24], text)
    dense = op(operands(a.contiguous()), [10, 24], text)   # resolved: C++
    counts.update({"python": 0, "c++": 0, "tensors": 0})
    strided = op(operands(a), [10, 24], text)
    expected = a + (F.silu(a @ gate.t()) * (a @ up.t())) @ down.t()
# CHECK: == non_contiguous: same True, against torch True, c++ launches 0, tensor launches 3
print(f"== non_contiguous: same {torch.equal(strided[0], dense[0])}, "
      f"against torch {torch.allclose(dense[0], expected, atol=1e-4)}, "
      f"c++ launches {counts['c++']}, tensor launches {counts['tensors']}")

# A launch the entry point refuses: C++ forgets the call and hands it to
# Python, whose pointer form runs it; the result is right and the next call
# at those dims is Python's (resolved again in C++ only by a new first call).
held = fast_op.count()
counts.update({"python": 0, "c++": 0, "tensors": 0})
with torch.no_grad():
    fail_next[0] = True
    again = op(operands(a.contiguous()), [10, 24], text)
# CHECK: == refused launch: right True, forgotten True, python launches 3
print(f"== refused launch: right {torch.allclose(again[0], expected, atol=1e-4)}"
      f", forgotten {fast_op.count() == held - 1}, python launches "
      f"{counts['python']}")

# The measured choice times the op as the model will call it: through the
# C++ kernel, registered for the timing and forgotten again if sol loses
# (here the timer is a stand-in that runs each side once and reports the
# given times).
times = [1.0, 2.0]


def one_pass(fns, graphs, reps=20, rotation=1):
    for fn in fns:
        for i in range(rotation):
            fn(i)
    return list(times)


real = (inductor.rotation, inductor._gpu_us_each)
inductor.rotation = lambda inputs: [inputs]
inductor._gpu_us_each = one_pass
spec = inductor._parse_spec(text)
with torch.no_grad():
    inputs = operands(torch.randn(6, 24))
    for sol_us in (1.0, 3.0):   # sol wins, then loses
        times[0] = sol_us
        counts.update({"python": 0, "c++": 0, "tensors": 0})
        held = fast_op.count()
        inductor.choices.pop((text, 6), None)
        inductor.choose(inputs, [[6, 24]], spec, text, 6, bar="cublas")
        # CHECK: == choice, sol 1.0 us: sol, timed in C++ True (python launches 0), held +1
        # CHECK: == choice, sol 3.0 us: aten, timed in C++ True (python launches 0), held +0
        print(f"== choice, sol {sol_us} us: {inductor.choices[(text, 6)]}, "
              f"timed in C++ {counts['c++'] == 3} (python launches "
              f"{counts['python']}), held +{fast_op.count() - held}")
        if sol_us == 1.0:
            fast_op.forget(inductor._fast_key((text[:32], 6, 24)))
inductor.rotation, inductor._gpu_us_each = real
