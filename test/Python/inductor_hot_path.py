# The resolved hot path of sol::fused (issue 16: host time per call). After
# its first call at some output dims, a region launches through its
# launcher's pointer form (`bind`): the inputs' data pointers and freshly
# allocated outputs of the op's final shapes go to the kernel as raw
# addresses, as the device launcher hands them to the C API on CUDA. Here
# the pointer form is a CPU stand-in that wraps the addresses back into
# tensors of the manifest's shapes (M from the launch) and evaluates the
# kernel's manifest program: so the addresses, their order, the M and the
# output buffers are all checked against eager on fresh random data, at odd
# shapes. A non-contiguous input takes the general (tensor) path.
# REQUIRES: torch
# RUN: rm -rf %t && SOL_CACHE_DIR=%t %sol_python -u %s 2>&1 | FileCheck %s

import logging
import os
import sys

import torch
import torch._dynamo
import torch.nn.functional as F

import sol.inductor as inductor
import sol.torch_backend  # noqa: F401  (registers backend="sol")
from sol.reference import _reference_raw

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from pointer_launch import SwiGLU, evaluate  # noqa: E402

logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
logging.getLogger("torch").setLevel(logging.ERROR)
torch.manual_seed(0)

counts = {"pointers": 0, "tensors": 0}




def tensor_launcher(kernel, tensors):
    counts["tensors"] += 1
    _reference_raw(kernel, tensors)


def bind(kernel, device):
    def launch(pointers, m):
        counts["pointers"] += 1
        evaluate(kernel, pointers, m)
    return launch


tensor_launcher.bind = bind
inductor.launchers["cpu_pointers"] = tensor_launcher
OPTIONS = {"launcher_name": "cpu_pointers"}




class TwoOutputs(torch.nn.Module):
    """A biased projection whose pre-activation is an output too (two
    results of one kernel), and a [K, N] weight."""

    def __init__(self, d=24):
        super().__init__()
        self.fc = torch.nn.Linear(d, 3 * d)
        self.weight = torch.nn.Parameter(torch.randn(3 * d, d) * 0.1)

    def forward(self, x):
        h = self.fc(x)
        return torch.relu(h) @ self.weight, h * 2.0


def check(name, model, shapes, dynamic=True):
    torch._dynamo.reset()
    before = len(inductor.history)
    compiled = torch.compile(model, backend="sol", dynamic=dynamic,
                             options=OPTIONS)
    ok = True
    with torch.no_grad():
        for shape in shapes:
            for _ in range(2):   # the first call at these dims, then one
                x = torch.randn(*shape)   # through the resolved entry
                got, expected = compiled(x), model(x)
                if isinstance(got, tuple):
                    ok &= all(torch.allclose(g, e, rtol=1e-4, atol=1e-4)
                              for g, e in zip(got, expected))
                else:
                    ok &= torch.allclose(got, expected, rtol=1e-4,
                                         atol=1e-4)
    for graph in inductor.history[before:]:
        print(graph.summary())
    print(f"== {name}: matches eager {ok}, pointer launches "
          f"{counts['pointers'] > 0}, tensor launches {counts['tensors']}")
    counts.update(pointers=0, tensors=0)


# CHECK: == swiglu: matches eager True, pointer launches True, tensor launches 0
check("swiglu", SwiGLU(), [(2, 5, 24), (1, 1, 24), (3, 11, 24), (6, 5, 24)])
# CHECK: == two_outputs: matches eager True, pointer launches True, tensor launches 0
check("two_outputs", TwoOutputs(), [(7, 24), (1, 24), (13, 24)])
# CHECK: == one_projection: matches eager True, pointer launches True, tensor launches 0
check("one_projection", torch.nn.Linear(24, 40), [(3, 24), (5, 24)])
# CHECK: == static_m: matches eager True, pointer launches True, tensor launches 0
check("static_m", SwiGLU(16, 24), [(2, 3, 16)], dynamic=False)

# The resolved entries are keyed by the output dims, not by M alone:
# [2, 6, N] and [3, 4, N] share M = 12 and are both right.
# CHECK: == same_m_other_dims: matches eager True, pointer launches True, tensor launches 0
check("same_m_other_dims", SwiGLU(), [(2, 6, 24), (3, 4, 24), (2, 6, 24)])

# A non-contiguous input (here the A operand of a region, called directly)
# takes the general path: flattened to a contiguous [M, K] first, the same
# result.
# CHECK: == non_contiguous: same result True, against torch True, tensor launches True
# SwiGLU(24, 40)'s region at 3-D outputs: its gate and up projections
# over one A (the two views of x are one input) and the down projection
# over their product, gathered into one call, with x as the residual.
text = next(t for t, _ in inductor._runners if "cpu_pointers" in t and
            inductor._parse_spec(t)["roles"][:3] == ["a", "b", "b"] and
            "tensor<40x24xf32>" in t)
with torch.no_grad():
    a = torch.randn(24, 10).t()   # [10, 24], not contiguous
    gate, up = torch.randn(40, 24), torch.randn(40, 24)
    down = torch.randn(24, 40)

    def operands(a):
        weights = iter([gate, up, down])
        return [a if role in ("a", "rows") else next(weights)
                for role in inductor._parse_spec(text)["roles"]]
    op = torch.ops.sol.fused.default
    dense = op(operands(a.contiguous()), [10, 24], text)
    counts.update(pointers=0, tensors=0)
    strided = op(operands(a), [10, 24], text)
    expected = a + (F.silu(a @ gate.t()) * (a @ up.t())) @ down.t()
kernels = len(inductor._runners[(text, "?")].steps)
print(f"== non_contiguous: same result "
      f"{torch.equal(strided[0], dense[0])}, against torch "
      f"{torch.allclose(dense[0], expected, atol=1e-4)}, "
      f"tensor launches {counts['tensors'] == kernels}")

# Both forms of the pointer path ran above: one kernel reading only the
# op's inputs, and several kernels (an output of one feeding the next; the
# SwiGLU product, read by the down projection alone, in the call's
# workspace).
# CHECK: == resolved: one kernel True, several kernels True, intermediates in a workspace True
resolved = [c for c in inductor._calls.values()
            if isinstance(c, inductor._SolCall) and c.steps is not None]
print(f"== resolved: one kernel {any(c.single for c in resolved)}, several "
      f"kernels {any(len(c.steps) > 1 for c in resolved)}, intermediates in "
      f"a workspace {any(c.workspace > 0 for c in resolved)}")

# The measured choice times L2-cold (no timing here: the CPU has no CUDA
# events): its calls rotate among copies of the inputs that together exceed
# the L2, read from the device's properties (faked here).
class FakeProperties:
    L2_cache_size = 1 << 20   # 1 MiB


real_properties = torch.cuda.get_device_properties
torch.cuda.get_device_properties = lambda device=None: FakeProperties()
l2 = inductor.l2_bytes(0)
del FakeProperties.L2_cache_size   # a torch whose properties lack it
default_l2 = inductor.l2_bytes(0)
torch.cuda.get_device_properties = real_properties
# CHECK: == l2: from the properties 1048576, without them the default True
print(f"== l2: from the properties {l2}, without them the default "
      f"{default_l2 == inductor._DEFAULT_L2_BYTES}")


def spans(tensor):
    start = tensor.data_ptr()
    return start, start + tensor.numel() * tensor.element_size()


def check_copies(name, inputs):
    copies = inductor._copies(inputs, l2)
    set_bytes = sum(t.numel() * t.element_size() for t in inputs)
    buffers = [spans(t) for copy in copies for t in copy]
    disjoint = all(a[1] <= b[0] for a, b in zip(sorted(buffers),
                                                sorted(buffers)[1:]))
    equal = all(torch.equal(c, t) for copy in copies
                for c, t in zip(copy, inputs))
    aligned = all(t.data_ptr() % 16 == 0 for copy in copies for t in copy)
    # What a call touches between two uses of one copy.
    others = (len(copies) - 1) * set_bytes
    covered = others >= inductor._L2_MARGIN * l2 if len(copies) > 1 else \
        set_bytes >= inductor._L2_MARGIN * l2
    print(f"== copies {name}: {len(copies)}, disjoint {disjoint}, equal "
          f"{equal}, 16-byte aligned {aligned}, cover {covered}")
    return copies


# A decode-sized region (odd sizes: a 7-element bf16 vector is 14 bytes,
# padded so the next copy stays aligned): 513280 bytes a copy (padded), 5
# others hold the 2 MiB of two L2s.
# CHECK: == copies decode: 6, disjoint True, equal True, 16-byte aligned True, cover True
check_copies("decode", [torch.randn(3, 77), torch.randn(640, 200),
                        torch.randn(7).to(torch.bfloat16)])
# Inputs that hold 2 L2s themselves are not copied.
# CHECK: == copies large: 1, disjoint True, equal True, 16-byte aligned True, cover True
big = [torch.randn(512, 1024)]
# CHECK: == large: the inputs themselves True
print(f"== large: the inputs themselves "
      f"{check_copies('large', big)[0][0] is big[0]}")
# A tiny region stops at _MAX_ROTATION copies.
# CHECK: == copies tiny: 1024, disjoint True, equal True, 16-byte aligned True, cover False
check_copies("tiny", [torch.randn(1, 8), torch.randn(8, 8)])

# choose() times each side over the copies: every call of the timing loop
# (here a stand-in that runs each call once) reads other buffers, on sol's
# side (the kernels' pointers) and on the bar's: cuBLAS's (torch.mm's
# operands) at trace time, the op's fallback in the op.
# (4608 bytes a copy, 29 others for two 64 KiB L2s.)
# CHECK: == choice over copies: sol saw 30 of 30, cuBLAS saw 30 of 30
# CHECK: == choice over copies: sol saw 30 of 30, the fallback saw 30 of 30
seen = {"sol": set(), "cublas": set(), "fallback": set()}
real_bind, real_mm = tensor_launcher.bind, torch.mm


def recording_bind(kernel, device):
    launch = real_bind(kernel, device)

    def record(pointers, m):
        seen["sol"].add(pointers[0])
        launch(pointers, m)
    return record


def recording_mm(a, b):
    seen["cublas"].add(a.data_ptr())
    return real_mm(a, b)


def one_pass(fns, graphs, reps=20, rotation=1):
    for fn in fns:
        for i in range(rotation):
            fn(i)
    return [1.0] * len(fns)


text = next(t for t, _ in inductor._runners if "cpu_pointers" in t and
            inductor._parse_spec(t)["roles"] == ["a", "b", "vector"] and
            "tensor<40x24xf32>" in t)
spec = inductor._parse_spec(text)
real = (inductor.rotation, inductor._gpu_us_each)
inductor.rotation = lambda inputs: inductor._copies(inputs, l2 // 16)
inductor._gpu_us_each = one_pass
tensor_launcher.bind = recording_bind
torch.mm = recording_mm
with torch.no_grad():
    inputs = [torch.randn(5, 24), torch.randn(40, 24), torch.randn(40)]
    inductor.choose(inputs, [[5, 40]] * len(spec["out_ranks"]), spec, text, 5,
                    bar="cublas")
    count = inductor.measurements[(text, 5)]["copies"]
    print(f"== choice over copies: sol saw {len(seen['sol'])} of {count}, "
          f"cuBLAS saw {len(seen['cublas'])} of {count}")
    real_fallback = inductor._run_fallback

    def recording_fallback(inputs, *rest):
        seen["fallback"].add(inputs[0].data_ptr())
        return real_fallback(inputs, *rest)
    inductor._run_fallback = recording_fallback
    seen["sol"].clear()
    inductor.choices.pop((text, 5))
    inductor.choose(inputs, [[5, 40]] * len(spec["out_ranks"]), spec, text, 5)
    inductor._run_fallback = real_fallback
    count = inductor.measurements[(text, 5)]["copies"]
    print(f"== choice over copies: sol saw {len(seen['sol'])} of {count}, "
          f"the fallback saw {len(seen['fallback'])} of {count}")
torch.mm = real_mm
tensor_launcher.bind = real_bind
inductor.rotation, inductor._gpu_us_each = real

# The trace-time bar is cuBLAS's matmuls alone, plus one elementwise pass
# over their results where Inductor would run the epilogue as a kernel of
# its own (the spec's epilogue_pass: the region feeds a matmul).
# CHECK: == bar epilogue pass: without 0 elementwise calls, with 1, both matmuls 1 each; two parts' passes 2
real_mul, calls = torch.mul, {"mul": 0, "mm": 0}


def counting_mul(*args, **kwargs):
    calls["mul"] += 1
    return real_mul(*args, **kwargs)


def counting_mm(a, b):
    calls["mm"] += 1
    return real_mm(a, b)


torch.mul, torch.mm = counting_mul, counting_mm
with torch.no_grad():
    inductor._cublas_matmuls(spec)(inputs)
    without = calls["mul"]
    inductor._cublas_matmuls(dict(spec, epilogue_pass=True))(inputs)
    with_one = calls["mul"] - without
    # A gathered region names each part's pass (`_epilogue_passes`).
    inductor._cublas_matmuls(dict(spec, epilogue_passes=[[0, 0], [0, 0]]))(
        inputs)
torch.mul, torch.mm = real_mul, real_mm
print(f"== bar epilogue pass: without {without} elementwise calls, with "
      f"{with_one}, both matmuls {calls['mm'] // 3} each; two parts' passes "
      f"{calls['mul'] - without - with_one}")
torch.mul, torch.mm = counting_mul, counting_mm
with torch.no_grad():
    # SwiGLU's gathered region: the down projection reads the pair's
    # product, computed once from the ATen program when the bar resolves
    # its operands; a timed call is its three matmuls and the pair's pass.
    swiglu = next(t for t, _ in inductor._runners if "cpu_pointers" in t and
                  inductor._parse_spec(t)["roles"][:3] == ["a", "b", "b"]
                  and "tensor<40x24xf32>" in t)
    bar = inductor._cublas_matmuls(inductor._parse_spec(swiglu))
    x = torch.randn(5, 24)
    weights = iter([torch.randn(40, 24), torch.randn(40, 24),
                    torch.randn(24, 40)])
    operands = [x if role in ("a", "rows") else next(weights)
                for role in inductor._parse_spec(swiglu)["roles"]]
    bar(operands)   # resolves
    calls.update(mul=0, mm=0)
    bar(operands)
    gathered = dict(calls)
    calls.update(mul=0, mm=0)
torch.mul, torch.mm = real_mul, real_mm
# CHECK: == gathered bar: 3 matmuls, 1 elementwise pass
print(f"== gathered bar: {gathered['mm']} matmuls, {gathered['mul']} "
      "elementwise pass")

# The two sides of a choice are heated together and then timed in
# alternating windows (bench/NOTES.md section 22: whichever side is timed
# first on a cool card gets the higher clock). Here with stand-ins for the
# CUDA events: the order the sides ran in, after the heat.
# CHECK: == timing order: heated both True, windows sol other sol other sol other, best [1.0, 2.0]
order = []


class FakeEvent:
    def __init__(self, **_):
        self.at = 0.0

    def record(self):
        self.at = len(order)

    def synchronize(self):
        pass

    def elapsed_time(self, end):   # ms: 1 us a call for sol, 2 for other
        return (1.0 if order[-1] == "sol" else 2.0) * 1e-3


real_cuda = (torch.cuda.Event, torch.cuda.synchronize, inductor._timed_calls)
torch.cuda.Event, torch.cuda.synchronize = FakeEvent, lambda: None
inductor._timed_calls = lambda fn, graphs, reps, rotation: (fn, 1)
best = inductor._gpu_us_each([lambda: order.append("sol"),
                              lambda: order.append("other")], False)
torch.cuda.Event, torch.cuda.synchronize, inductor._timed_calls = real_cuda
heat, windows = order[:-2 * inductor._WINDOWS], order[-2 * inductor._WINDOWS:]
print(f"== timing order: heated both {heat[:2] == ['sol', 'other']}, windows "
      f"{' '.join(windows)}, best {best}")
