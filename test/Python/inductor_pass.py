# sol's post-grad pass inside Inductor on small torch.nn modules (CPU, the
# reference launcher): which matmuls become sol regions and which ops join
# them, what stays with Inductor and why, the report, the ATen fallback,
# dynamic M from one compiled graph, and that no graph falls back whole.
# REQUIRES: torch
# RUN: rm -rf %t && SOL_CACHE_DIR=%t %sol_python -u %s 2>&1 | FileCheck %s

import logging
import os
import re
import sys

import torch
import torch._dynamo
import torch.nn.functional as F

import sol.inductor as inductor
import sol.torch_backend  # noqa: F401  (registers backend="sol")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
import pointer_launch  # noqa: E402

logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
logging.getLogger("torch").setLevel(logging.ERROR)
torch.manual_seed(0)


def run(name, model, *inputs, dynamic=False, options=None, check=True):
    torch._dynamo.reset()
    before = len(inductor.history)
    compiled = torch.compile(model, backend="sol", dynamic=dynamic,
                             options=options or {})
    with torch.no_grad():
        expected = model(*inputs)
        got = compiled(*inputs)
    close = torch.allclose(got, expected, rtol=1e-4, atol=1e-4)
    print(f"== {name}: matches eager: {close}")
    for graph in inductor.history[before:]:
        print(graph.summary())
    return compiled


# A SwiGLU MLP with a residual: the gate and up projections meet in the
# product, so they are one region (sol-fuse pairs them); the down projection
# takes the residual. Inductor decomposed silu to x / (1 + exp(-x)). The down
# projection reads the product as its A, so the two regions are gathered
# into one call (`_Grower.gather`: one op call of host time, not two); with
# the backend's gather option off they are two.
# CHECK-LABEL: == swiglu_residual: matches eager: True
# CHECK:       sol ran 100.0% of this graph's matmul FLOPs
# CHECK:       region 0: sol: mm, {{.*}}mm_1, {{.*}}mul, {{.*}}mm_2, {{.*}}add
# CHECK-NOT:   region 1:
# CHECK-LABEL: == swiglu_residual_not_gathered: matches eager: True
# CHECK:       region 0: sol: mm, {{.*}}mm_1, {{.*}}mul
# CHECK:       region 1: sol: mm_2, {{.*}}add
class SwiGLU(pointer_launch.SwiGLU):
    def __init__(self, d=64, f=96):
        super().__init__(d, f)


run("swiglu_residual", SwiGLU(), torch.randn(2, 5, 64))
run("swiglu_residual_not_gathered", SwiGLU(), torch.randn(2, 5, 64),
    options={"gather": False})


# The same MLP in bf16, as a Hugging Face model runs it: silu is computed in
# f32 (two casts around its four decomposed ops), so the gate reaches the
# product five ops after the up projection does; the up projection's region
# waits for the gate's (`_taker`) instead of taking the product alone. And
# the two projections read their A as two views of x, which the region
# keeps as one input, so sol-fuse can pair them as siblings: both matmuls
# read %arg0.
# CHECK-LABEL: == swiglu_bf16: one region: True
# CHECK:       region 0: sol: mm, {{.*}}convert_element_type{{.*}}mm_1, {{.*}}mul
# CHECK:       ir: %v1 = sol.matmul %arg0, %arg1 transpose_b
# CHECK:       ir: %v{{[0-9]+}} = sol.matmul %arg0, %arg2 transpose_b
class SwiGLUHalfSilu(SwiGLU):
    def forward(self, x):
        gate = self.gate(x)
        silu = F.silu(gate.float()).to(gate.dtype)
        return x + self.down(silu * self.up(x))


def swiglu_bf16():
    torch._dynamo.reset()
    before = len(inductor.history)
    model = SwiGLUHalfSilu().to(torch.bfloat16)
    x = torch.randn(2, 5, 64, dtype=torch.bfloat16)
    with torch.no_grad():
        got = torch.compile(model, backend="sol")(x)
        expected = model(x)
    graph = inductor.history[before]
    print("== swiglu_bf16: one region:",
          sum("mm" in r.matmuls and "mm_1" in r.matmuls
              for r in graph.regions) == 1,
          "matches eager:", torch.allclose(got.float(), expected.float(),
                                           rtol=2e-2, atol=2e-2))
    print(graph.summary())
    for region in graph.regions:
        for line in region.ir.splitlines():
            if "sol.matmul" in line:
                print("   ir:", line.strip())
    # The pair's product feeds the down projection, an extern matmul in
    # Inductor's code, so Inductor would run it as a pass of its own: the
    # trace-time bar counts it, over the region's first two matmuls (the
    # pair). The down projection's residual add is the model's output,
    # which Inductor would fuse onward: no pass for the third.
    specs = {tuple(s["roles"]): s.get("epilogue_passes") for s in
             (inductor._parse_spec(t) for t, _ in inductor._runners)
             if "bf16" in s["ir"] and ("96x64" in s["ir"] or
                                       "64x96" in s["ir"])}
    print("== swiglu_bf16 bar: epilogue passes over matmuls",
          specs.get(("a", "b", "b", "b", "rows")))


# CHECK: == swiglu_bf16 bar: epilogue passes over matmuls {{\[\[}}0, 1]]
swiglu_bf16()


# By default (the backend's sibling_sets option) the pair's region gets two
# dynamic kernel sets, split at 128 rows (both compiled at trace time):
# below, the two decode kernels; from 128 rows one sibling kernel (sol-fuse
# pairs a dynamic pair only where a generator takes it at every M of the
# set). Both match eager, from one compiled graph. With the option off, one
# set from M = 1 keeps the two kernels at every M.
# (The region gathers the down projection too: a third kernel in both.)
# CHECK: == sibling_sets default: sets ['?', '?128'], kernels below 3, from 128 rows 2, matches eager True True
# CHECK: == sibling_sets off: sets ['?'], kernels below 3, from 128 rows None, matches eager True True
def sibling_sets(label, options):
    torch._dynamo.reset()
    model = SwiGLUHalfSilu().to(torch.bfloat16)
    compiled = torch.compile(model, backend="sol", dynamic=True,
                             options=options)
    ok = []
    with torch.no_grad():
        for rows in (5, 130):
            x = torch.randn(2, rows, 64, dtype=torch.bfloat16)
            ok.append(torch.allclose(compiled(x).float(), model(x).float(),
                                     rtol=2e-2, atol=2e-2))
    keys = {}
    for (text, key), runner in list(inductor._runners.items()):
        spec = inductor._parse_spec(text)
        if _may_pair(spec) and isinstance(key, str) and \
                bool(spec.get("sibling_sets")) == (label == "default"):
            keys[key] = len(runner.steps)
    print(f"== sibling_sets {label}: sets {sorted(keys)}, kernels below "
          f"{keys.get('?')}, from 128 rows {keys.get('?128')}, matches "
          f"eager {ok[0]} {ok[1]}")


_may_pair = inductor._may_pair
sibling_sets("default", {})
sibling_sets("off", {"sibling_sets": False})


# RMSNorm after a residual sum: the sum joins the projection's region, the
# square of it (read only by the norm's mean) is dropped back to Inductor,
# which fuses it into the reduction.
# CHECK-LABEL: == residual_then_norm: matches eager: True
# CHECK:       region 0: sol: mm, view_1, add (
# CHECK-NOT:   pow
# CHECK:       region 1:
class ResidualNorm(torch.nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.o = torch.nn.Linear(d, d, bias=False)
        self.norm = torch.nn.RMSNorm(d)
        self.next = torch.nn.Linear(d, d, bias=False)

    def forward(self, x, r):
        h = r + self.o(x)
        return self.next(self.norm(h)) + h


run("residual_then_norm", ResidualNorm(), torch.randn(2, 5, 64),
    torch.randn(2, 5, 64))


def epilogue_passes(graph):
    """Per sol region of `graph`: whether its spec has the trace-time bar
    count an epilogue pass (`_epilogue_feeds_a_matmul`)."""
    specs = [inductor._parse_spec(t) for t, _ in inductor._runners]

    def same(spec, region):   # "{M}" in the spec's IR, M or ? in the report's
        pattern = re.escape(spec["ir"]).replace(re.escape("{M}"),
                                                r"(\?|\d+)")
        return re.search(pattern, region.ir) is not None
    return [next((s.get("epilogue_passes") or s.get("epilogue_pass", False)
                  for s in specs if same(s, r)), None)
            for r in graph.regions if r.status == "sol"]


# The residual sum feeds the norm (Inductor fuses it there) and the model's
# output: no region's bar counts an epilogue pass.
# CHECK: == residual_then_norm bar: epilogue passes [False, False]
print("== residual_then_norm bar: epilogue passes",
      epilogue_passes(inductor.history[-1]))


# Gathering stops where one call could be placed nowhere: q and k read one
# A, but k's epilogue adds q's running sum, which Inductor computes (a scan,
# not sol's) from q's result, so q, then the scan, then k: two calls. v
# reads the same A and neither reads the other: it joins k.
# CHECK-LABEL: == gather_not_across_inductor: matches eager: True
# CHECK:       region 0: sol: mm_1, view_3, add, mm_2, view_5 (
# CHECK:       region 1: sol: mm, view_1 (
class CrossRead(torch.nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.q = torch.nn.Linear(d, d, bias=False)
        self.k = torch.nn.Linear(d, d, bias=False)
        self.v = torch.nn.Linear(d, 32, bias=False)

    def forward(self, x):
        q = self.q(x)
        k = self.k(x) + q.cumsum(-1)
        return q, k, self.v(x)


def cross_read():
    torch._dynamo.reset()
    before = len(inductor.history)
    model, x = CrossRead(), torch.randn(2, 5, 64)
    with torch.no_grad():
        got = torch.compile(model, backend="sol")(x)
        expected = model(x)
    close = all(torch.allclose(g, e, rtol=1e-4, atol=1e-4)
                for g, e in zip(got, expected))
    print(f"== gather_not_across_inductor: matches eager: {close}")
    for graph in inductor.history[before:]:
        print(graph.summary())


cross_read()


# A gathered call that loses the trace-time choice may hold parts that win
# alone: each is then measured on its own. The GPU's path on the CPU: the
# measurement switched on and a stand-in timer with scripted verdicts (after
# running both sides once): the gathered SwiGLU call loses, its sibling
# pair then wins alone and its down projection loses alone, so the pair is
# sol's and down Inductor's, each with its reason.
# CHECK-LABEL: == gathered_loser_split: matches eager: True
# CHECK:       sol ran {{[0-9.]+}}% of this graph's matmul FLOPs
# CHECK:       region 0: inductor: measured: sol 2.0 us, cuBLAS's matmuls and the epilogue pass 1.0 us; its 2 parts were tried alone: mm, {{.*}}mm_2, {{.*}}add
# CHECK:       region 1: sol: mm, {{.*}}mm_1, {{.*}}mul, view_4 (
# CHECK:       region 2: inductor: measured: sol 2.0 us, cuBLAS's matmuls alone 1.0 us: mm_2, {{.*}}add
# CHECK-NOT:   region 3:
# CHECK:       inductor mm_2: inductor: measured: sol 2.0 us
# CHECK-NOT:   inductor mm
# CHECK:       == gathered_loser_split: timed 3 regions
verdicts = []


def scripted(fns, graphs, **_):
    for fn in fns:
        fn(0)
    return [1.0, 2.0] if verdicts.pop(0) == "sol" else [2.0, 1.0]


real_measures, real_timer = inductor._measures_at_trace, \
    inductor._gpu_us_each
inductor._measures_at_trace = lambda inputs: True
inductor._gpu_us_each = scripted
verdicts[:] = ["cublas", "sol", "cublas"]
run("gathered_loser_split", SwiGLU(), torch.randn(2, 5, 64))
inductor._measures_at_trace, inductor._gpu_us_each = real_measures, \
    real_timer
print(f"== gathered_loser_split: timed {3 - len(verdicts)} regions")


# A biased linear (addmm) with GELU-tanh (decomposed by then), and a [K, N] weight (GPT-2's Conv1D:
# no transpose): both are sol regions.
# CHECK-LABEL: == addmm_gelu_and_kn_weight: matches eager: True
# CHECK:       sol ran 100.0% of this graph's matmul FLOPs
# CHECK:       region 0: sol: addmm, {{.*}}tanh, {{.*}}addmm_1
# CHECK-NOT:   region 1:
class Conv1DLike(torch.nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.fc = torch.nn.Linear(d, 4 * d)
        self.weight = torch.nn.Parameter(torch.randn(4 * d, d) * 0.05)
        self.bias = torch.nn.Parameter(torch.randn(d))

    def forward(self, x):
        h = F.gelu(self.fc(x), approximate="tanh")
        return torch.addmm(self.bias, h.view(-1, h.shape[-1]), self.weight)


run("addmm_gelu_and_kn_weight", Conv1DLike(), torch.randn(7, 64))
# GELU's result feeds the next matmul, so Inductor would run it as a pass of
# its own: the bar counts it over the first matmul; the second's result is
# the output. Not gathered, the first region's bar counts it alone.
# CHECK: == addmm_gelu bar: epilogue passes {{\[\[\[}}0, 0]]]
print("== addmm_gelu bar: epilogue passes",
      epilogue_passes(inductor.history[-1]))
# CHECK-LABEL: == addmm_gelu_not_gathered: matches eager: True
# CHECK:       region 0: sol: addmm, {{.*}}tanh
# CHECK:       region 1: sol: addmm_1
# CHECK: == addmm_gelu_not_gathered bar: epilogue passes [True, False]
run("addmm_gelu_not_gathered", Conv1DLike(), torch.randn(7, 64),
    options={"gather": False})
print("== addmm_gelu_not_gathered bar: epilogue passes",
      epilogue_passes(inductor.history[-1]))


# A fused gate-up projection (Phi-3's gate_up_proj, chunked in two): the
# halves meet in the gated product, so the projection is split into two
# matmuls over the weight's row halves, which the growth pairs as siblings
# with the product (Inductor's decomposed silu) in their epilogue: sol writes
# the [M, F] product, not the [M, 2F] projection. With a bias too (its
# halves go with the weight's), and with M symbolic.
# CHECK-LABEL: == fused_gate_up: matches eager: True
# CHECK:       sol ran 100.0% of this graph's matmul FLOPs
# CHECK:       region 0: sol: mm_default, {{.*}}mm_default_1, {{.*}}div, mul
# CHECK-LABEL: == fused_gate_up_bias_dynamic: matches eager: True
# CHECK:       region 0: sol: addmm_default, {{.*}}addmm_default_1, {{.*}}div, mul{{.*}}one kernel set for every M)
# Halves that never meet (q and k of a fused projection read apart) keep
# the one matmul.
# CHECK-LABEL: == fused_halves_apart: matches eager: True
# CHECK:       region 0: sol: mm, view_1 (
# A [K, N] weight's column halves would be strided views, not weights a
# kernel reads whole: the projection stays one matmul, its halves' product
# with Inductor.
# CHECK-LABEL: == fused_kn_weight: matches eager: True
# CHECK:       region 0: sol: mm, view_1 (
class GateUp(torch.nn.Module):
    def __init__(self, d=64, f=96, bias=False, meet=True):
        super().__init__()
        self.gate_up = torch.nn.Linear(d, 2 * f, bias=bias)
        self.down = torch.nn.Linear(f, d, bias=False)
        self.meet = meet

    def forward(self, x):
        gate, up = self.gate_up(x).chunk(2, dim=-1)
        if not self.meet:
            return torch.cat([gate.sum(-1, keepdim=True),
                              up.amax(-1, keepdim=True)], -1)
        return x + self.down(F.silu(gate) * up)


run("fused_gate_up", GateUp(), torch.randn(2, 5, 64))
run("fused_gate_up_bias_dynamic", GateUp(bias=True), torch.randn(3, 7, 64),
    dynamic=True)
run("fused_halves_apart", GateUp(meet=False), torch.randn(2, 5, 64))


class GateUpKN(torch.nn.Module):
    def __init__(self, d=64, f=96):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(d, 2 * f) / d ** 0.5)

    def forward(self, x):
        gate, up = (x @ self.w).chunk(2, dim=-1)
        return F.silu(gate) * up


run("fused_kn_weight", GateUpKN(), torch.randn(2, 5, 64))


# A batched matmul (attention scores written by hand) stays with Inductor,
# with the reason; the projections around it are sol's. A split of a fused
# projection's output and getitem nodes do not send the graph back whole
# (the old backend's KeyError: getitem_NN).
# CHECK-LABEL: == bmm_and_split: matches eager: True
# CHECK:       inductor bmm: bmm: sol's batched matmul (mma.sync with a batched B) is not taken from the graph yet
# CHECK-NOT:   <graph>
class Attention(torch.nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.o = torch.nn.Linear(d, d)

    def forward(self, x):
        q, k, v = self.qkv(x).split(x.shape[-1], dim=-1)
        scores = torch.softmax(q @ k.transpose(1, 2) / 8.0, dim=-1)
        return self.o(scores @ v)


run("bmm_and_split", Attention(), torch.randn(2, 6, 64))
# With a dynamic sequence the scores' N and the context's K are dynamic:
# the reason says that is what keeps them.
# CHECK-LABEL: == bmm_dynamic_sequence: matches eager: True
# CHECK:       inductor bmm{{[_0-9]*}}: bmm with a dynamic N or K (attention over the sequence): sol's dynamic kernels take a dynamic M alone
run("bmm_dynamic_sequence", Attention(), torch.randn(2, 6, 64), dynamic=True)


# One compiled graph for every M: dynamic=True gives the pass a symbolic
# token dimension; each region is one dynamic kernel set (compiled once, at
# trace time, with M open), so new M compile nothing.
# CHECK-LABEL: == dynamic_m: matches eager: True
# CHECK:       (23040 of 23040, dynamic M)
# CHECK:       region 0: sol: {{.*}}, one kernel set for every M)
# The example M (10) is not a point the set was priced at: the report says
# which M its T_pred is for.
# CHECK-NEXT:  kernel sol_region_matmul_{{[0-9]}}: {{.*}} FLOP at M={{[0-9]+}}
# CHECK:       == dynamic_m at 3 x 11 and 4 x 29: matches eager True, new graphs 0, sol compiles 0
compiled = run("dynamic_m", SwiGLU(16, 24), torch.randn(2, 5, 16),
               dynamic=True)
graphs = len(inductor.history)
compiles = sol.torch_backend.cache_stats["compiles"]
ok = True
with torch.no_grad():
    for shape in ((3, 11, 16), (4, 29, 16)):
        x = torch.randn(*shape)
        ok &= torch.allclose(compiled(x), compiled._orig_mod(x), rtol=1e-4,
                             atol=1e-4)
print(f"== dynamic_m at 3 x 11 and 4 x 29: matches eager {ok}, "
      f"new graphs {len(inductor.history) - graphs}, sol compiles "
      f"{sol.torch_backend.cache_stats['compiles'] - compiles}")

# When a region's dynamic kernel set does not compile (here: made to fail),
# each M is compiled on its own; when that fails for an M first seen at run
# time, the region runs its own ATen ops at that M from then on, with the
# reason logged. The model's results do not change.
# CHECK-LABEL: == per_m: matches eager: True
# CHECK-NOT:   one kernel set for every M
# CHECK:       sol: a sol region runs its ATen ops at M=15 from now on: SolError: injected
# CHECK:       == fallback: matches eager True
real_compile = inductor.compile_region


def failing_compile(spec, m):
    if m in ("?", 15):
        raise sol.SolError("injected")
    return real_compile(spec, m)


import sol  # noqa: E402
inductor.compile_region = failing_compile
per_m = run("per_m", SwiGLU(16, 20), torch.randn(2, 5, 16), dynamic=True)
with torch.no_grad():
    x = torch.randn(5, 3, 16)
    ok = torch.allclose(per_m(x), per_m._orig_mod(x), rtol=1e-4,
                        atol=1e-4)
inductor.compile_region = real_compile
print(f"== fallback: matches eager {ok}")

# The measured choice (on CUDA; here with a stand-in for the timer, which
# the CPU cannot run): a region sol runs slower than cuBLAS's bare matmuls,
# as fast, or faster by no more than the choice's noise (3 %), runs its
# ATen ops at that M from then on (every call, the first and the resolved
# ones after it); one it runs clearly faster stays sol's. The results do
# not change either way.
# CHECK: == choice: sol 9.0 vs cuBLAS 5.0 us: aten
# CHECK: == choice: sol 5.0 vs cuBLAS 5.0 us: aten
# CHECK: == choice: sol 4.9 vs cuBLAS 5.0 us: aten
# CHECK: == choice: sol 4.8 vs cuBLAS 5.0 us: sol
# CHECK: == choice: sol 4.0 vs cuBLAS 5.0 us: sol
# CHECK: == choice routes the op: matches eager True True, ATen calls 2
real_timer = inductor._gpu_us_each
with torch.no_grad():
    x = torch.randn(3, 6, 16)
    compiled(x)   # M = 18, from the dynamic kernel sets
    text = next(t for t, m in inductor._runners
                if m == "?" and "tensor<24x16xf32>" in t)
    spec = inductor._parse_spec(text)
    flat = [x.reshape(18, 16)] + [None] * (len(spec["roles"]) - 1)
    for sol_us in (9.0, 5.0, 4.9, 4.8, 4.0):
        inductor._gpu_us_each = (lambda fns, graphs, sol_us=sol_us, **_:
                                 [sol_us, 5.0])
        inductor.choices.pop((text, 18), None)
        inductor.choose(flat, [], spec, text, 18)
        print(f"== choice: sol {sol_us} vs cuBLAS 5.0 us: "
              f"{inductor.choices[(text, 18)]}")
    inductor._gpu_us_each = real_timer
    # An M this graph has not run yet (3 x 7 = 21), chosen for ATen before
    # its first call.
    x = torch.randn(3, 7, 16)
    inductor.choices[(text, 21)] = "aten"
    real_aten, calls = inductor._run_aten, []
    inductor._run_aten = lambda *a: calls.append(1) or real_aten(*a)
    ok = [torch.allclose(compiled(x), compiled._orig_mod(x), rtol=1e-4,
                         atol=1e-4) for _ in range(2)]
    inductor._run_aten = real_aten
    inductor.choices.pop((text, 21))
print(f"== choice routes the op: matches eager {ok[0]} {ok[1]}, ATen calls "
      f"{len(calls)}")

# Where the fallback runs often (an M sol loses at, on CUDA:
# `compiles_fallback`), it is the region's ATen ops compiled by Inductor
# once for every M, not the ops one by one: forced here on the CPU. Two
# chosen-for-ATen M (21, 24) share one compilation, the interpreted ops do
# not run, the results match eager; another region gets a code object of
# its own (dynamo's per-code-object recompile limit).
# CHECK: == compiled fallback: matches eager True True, interpreted calls 0, compilations 1, own code True
# CHECK: == fallback in a capture: M=21 matches True, interpreted 0; M=27 matches True, interpreted 1
real_predicate = inductor.compiles_fallback
inductor.compiles_fallback = lambda inputs: True
with torch.no_grad():
    calls = []
    inductor._run_aten = lambda *a: calls.append(1) or real_aten(*a)
    ok = []
    graphs_before = torch._dynamo.utils.counters["stats"]["unique_graphs"]
    for tokens in (7, 8):
        x = torch.randn(3, tokens, 16)
        inductor.choices[(text, 3 * tokens)] = "aten"
        ok.append(torch.allclose(compiled(x), compiled._orig_mod(x),
                                 rtol=1e-4, atol=1e-4))
        inductor.choices.pop((text, 3 * tokens))
    inductor._run_aten = real_aten
    fallback = inductor._compiled_fallbacks[text]
    other = inductor._compiled_fallback(spec, text + " ")
    code = lambda f: f._torchdynamo_orig_callable.__code__
    frames = (torch._dynamo.utils.counters["stats"]["unique_graphs"] -
              graphs_before)
    # Inside a CUDA graph capture (here pretended) the compiled form runs
    # only at an M it already ran at (21); at another (27) the interpreted
    # ops run, since compiling there would break the capture.
    real_capturing, inductor._capturing = inductor._capturing, lambda: True
    inductor._run_aten = lambda *a: calls.append(1) or real_aten(*a)
    captured = []
    for tokens in (7, 9):
        x = torch.randn(3, tokens, 16)
        before = len(calls)
        inductor.choices[(text, 3 * tokens)] = "aten"
        same = torch.allclose(compiled(x), compiled._orig_mod(x), rtol=1e-4,
                              atol=1e-4)
        inductor.choices.pop((text, 3 * tokens))
        captured.append((same, len(calls) - before))
    inductor._run_aten = real_aten
    inductor._capturing = real_capturing
inductor.compiles_fallback = real_predicate
print(f"== compiled fallback: matches eager {ok[0]} {ok[1]}, interpreted "
      f"calls {len(calls) - sum(c for _, c in captured)}, compilations "
      f"{frames}, own code {code(fallback) is not code(other)}")
print(f"== fallback in a capture: M=21 matches {captured[0][0]}, interpreted "
      f"{captured[0][1]}; M=27 matches {captured[1][0]}, interpreted "
      f"{captured[1][1]}")

# reduce-overhead is Inductor's mode, passed through (CUDA graphs are a
# no-op on the CPU); a bad option fails the region, not the model.
# CHECK-LABEL: == reduce_overhead: matches eager: True
run("reduce_overhead", SwiGLU(16, 24), torch.randn(2, 5, 16),
    options={"mode": "reduce-overhead"})
# CHECK-LABEL: == bad_sol_option: matches eager: True
# CHECK:       region 0: inductor: SolError: {{.*}}no-such-option
run("bad_sol_option", SwiGLU(16, 24), torch.randn(2, 5, 16),
    options={"sol_options": "no-such-option=1"})
