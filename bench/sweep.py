#!/usr/bin/env python3
"""Issue 19's shape sweep: the linear layers of real open models, with and
without their epilogues, at every token count from 1 to 8192, sol against
the peers in the same run on the GPU.

    python3 bench/sweep.py --out OUT.json [--part N/P] [--models a,b]
        [--dtypes fp16,bf16] [--ms 1,2,...] [--impls sol,eager,...]
        [--budget-s 420] [--resume OUT.json]
    python3 bench/sweep.py --dry-run [--part N/P] [--compile 2]   # no GPU
    python3 bench/sweep.py --emit-mlir DIR [--models ...]          # no torch

Shapes (CONFIGS, one table, each model's config source noted): per model
its q / k|v / fused qkv / o / gate|up / fused gate_up / down / lm_head
(GPT-2: c_attn, attn.c_proj, mlp.c_fc, mlp.c_proj, lm_head; MoE models:
router, expert gate|up, expert down) as (N, K), each without an epilogue
and with the model's own: bias (Qwen's q/k/v, GPT-2's Conv1Ds), GELU(tanh)
after GPT-2's c_fc, a residual add after o and down (GPT-2's after bias),
and SiLU(gate) * up as the sibling pair of gate and up (two matmuls of one
input). A (N, K, layout, epilogue) shared by several models or layers is
measured once, under its first name; its row lists the rest in `also`.
GPT-2's Conv1D weights are [K, N] (`x @ W + b`, sol.matmul without
transpose_b); every other weight is [N, K] (`x @ W^T`).

The default --models are issue 19's list (Llama 3 8B and 70B, Mistral 7B,
Qwen2.5 7B, GPT-2, Mixtral 8x7B: its experts and attention are Mistral's
shapes, its router is its own); `--models all` adds GPT-2 large and
Qwen3-30B-A3B (a 128-wide router, 768-wide experts).

M: 1, 2, 4, ..., 8192 and the odd 3, 37, 999, 3001; fp16 and bf16.

Implementations (--impls):
  sol        one dynamic-M kernel set per (shape, epilogue, dtype), `?` for
             M with the range 1..8192 hinted at every M above (so the cost
             model reports a prediction at each: docs/dynamic-shapes.md; the
             hints also add the odd M to the planner's sample points), one
             compile for every M; each row records the plan the set runs at
             that M (`plan`), its predicted time (`t_pred_us`, at
             `t_pred_m`) and the compile time (`compile_s`, first row).
  eager      the model's eager code: F.linear (cuBLAS) or, for GPT-2,
             torch.mm / torch.addmm, then the epilogue as eager ops.
  addmm      cuBLASLt with the epilogue in the GEMM where one fits it:
             torch.addmm(b, x, W^T) for a bias ([N, K] weights; GPT-2's
             eager already is that addmm), torch.addmm(r, x, W^T) for a
             residual (as C), torch._addmm_activation(b, x, W,
             use_gelu=True) for GPT-2's bias + GELU. No row for a plain
             matmul (eager is the cuBLAS call), bias + residual or SiLU * up.
  inductor   the default torch.compile of the eager code, M marked dynamic
             with torch._dynamo.mark_dynamic: one Inductor graph serves
             every M >= 2 and one M = 1 (dynamo specialises 1), compiled at
             the first call of each, outside the timing (`first_call_s`).
  inductor_max_autotune
             torch.compile(mode="max-autotune-no-cudagraphs") compiled per
             M (dynamic=False), only at --max-autotune-ms: a dynamic graph
             would tune its GEMM at one M's size hint for all M, so per M
             is this peer at its strongest; a compile takes tens of seconds,
             so it is not in the default --impls (give it to a part of its
             own).

Correctness: every implementation's output at every M is checked against a
float64 reference of the same inputs (max |diff| / max |ref| <= REL_TOL of
bench/timing.py: `ok`, `rel_err`) before it is timed; a row that fails (or
whose compile or launch raised: `error`) is written with `us` null and is
never timed. Inputs: x ~ N(0, 1), weights ~ N(0, 1/K), bias and residual
~ N(0, 1), so each epilogue term is as large as the matmul's.

Timing: bench/timing.py's time_call (the card heated, then the median of 5
windows of back-to-back calls between CUDA events; host launch cost
included), 0.25 s of heat and 20 ms windows (--heat-s, --window-s). Calls
rotate through copies of the inputs that together exceed 3x the L2, so
each call streams its weight from HBM as a layer in a model does
(--l2-warm: one set). --graphs times CUDA-graph replays of one call per
input set (at least 20) instead (time_graph_call): the kernels without
Python's launch path, which bounds every row under ~25 us otherwise
(bench/NOTES.md section 32); each row's `timing` says "graph", or "calls"
where its capture failed.

Parts: --part N/P takes the N-th of P parts of the (shape, epilogue, dtype)
items the --models, --dtypes, --epilogues and --items filters leave (--items
takes ids as the JSON's `items` and `left` list them), split by
estimated run time (longest first onto the lightest part; deterministic).
The JSON is rewritten every 10 s and after each item; --budget-s (counted
from the process's start) stops before the next compile or measurement
that the budget no longer covers, writes what it has, lists the items left
(`left`) and exits 0. A launch that loses the CUDA context (a faulting
kernel) stops the part with `fatal` and exit status 1. --resume FILE keeps
FILE's rows and skips its finished items (`done`).

Output: {"card", "date", "torch", "sol_build", "args", "part", "items",
"done", "left", ("fatal"), "plan_tables", "rows": [{"model", "layer",
"also", "n", "k", "layout", "m", "dtype", "epilogue", "impl", "us", "ok",
"rel_err", "error", "first_call_s"; sol: "plan", "t_pred_us", "t_pred_m",
"compile_s"}]}. bench/sweep_report.py summarises one or more such files.
"""

import argparse
import datetime
import json
import math
import os
import sys
import time
import types
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import (REL_TOL, rel_err, sol_module,  # noqa: E402
                    sol_plan_at, sol_plans, sol_runner, time_call,
                    time_graph_call)

MS = [1, 2, 3, 4, 8, 16, 32, 37, 64, 128, 256, 512, 999, 1024, 2048, 3001,
      4096, 8192]
# One kernel set serves the whole sweep's range, whatever --ms a part runs.
DIM_RANGE = (1, max(MS))
DTYPES = ["fp16", "bf16"]
IMPLS = ["sol", "eager", "addmm", "inductor", "inductor_max_autotune"]
DEFAULT_IMPLS = ["sol", "eager", "addmm", "inductor"]
MAX_AUTOTUNE_MS = [1, 16, 128, 1024, 4096]

# The models' published configs (the config.json of the Hugging Face repo
# named in `source`). "llama": q, k|v, qkv, o, gate|up, gate_up, down,
# lm_head; "moe": that attention, a router and per-expert gate|up and down
# (the experts' sum replaces the residual add); "gpt2": Conv1D layers.
CONFIGS = {
    "llama3-8b": dict(
        arch="llama", hidden=4096, intermediate=14336, heads=32,
        kv_heads=8, head_dim=128, vocab=128256, qkv_bias=False,
        source="meta-llama/Meta-Llama-3-8B"),
    "llama3-70b": dict(
        arch="llama", hidden=8192, intermediate=28672, heads=64,
        kv_heads=8, head_dim=128, vocab=128256, qkv_bias=False,
        source="meta-llama/Meta-Llama-3-70B"),
    "mistral-7b": dict(
        arch="llama", hidden=4096, intermediate=14336, heads=32,
        kv_heads=8, head_dim=128, vocab=32000, qkv_bias=False,
        source="mistralai/Mistral-7B-v0.1"),
    "qwen2.5-7b": dict(
        arch="llama", hidden=3584, intermediate=18944, heads=28,
        kv_heads=4, head_dim=128, vocab=152064, qkv_bias=True,
        source="Qwen/Qwen2.5-7B (untied lm_head)"),
    "mixtral-8x7b": dict(
        arch="moe", hidden=4096, expert_intermediate=14336, experts=8,
        heads=32, kv_heads=8, head_dim=128, vocab=32000, qkv_bias=False,
        source="mistralai/Mixtral-8x7B-v0.1 (8 experts, 2 per token)"),
    "gpt2": dict(
        arch="gpt2", hidden=768, intermediate=3072, vocab=50257,
        source="openai-community/gpt2 (n_inner = 4 n_embd, gelu_new, "
               "lm_head tied to wte [vocab, n_embd])"),
    "gpt2-large": dict(
        arch="gpt2", hidden=1280, intermediate=5120, vocab=50257,
        source="openai-community/gpt2-large"),
    "qwen3-30b-a3b": dict(
        arch="moe", hidden=2048, expert_intermediate=768, experts=128,
        heads=32, kv_heads=4, head_dim=128, vocab=151936, qkv_bias=False,
        source="Qwen/Qwen3-30B-A3B (128 experts, 8 per token)"),
}
# The list (Llama 3 8B and 70B, Mistral 7B, a Qwen, GPT-2, a
# Mixtral expert); `--models all` adds the rest.
DEFAULT_MODELS = ["llama3-8b", "llama3-70b", "mistral-7b", "qwen2.5-7b",
                  "gpt2", "mixtral-8x7b"]

# epilogue -> the function's arguments after x (w: the weight; wu: up's).
EPILOGUE_ARGS = {
    "none": ["w"],
    "bias": ["w", "b"],
    "residual": ["w", "r"],
    "bias_gelu": ["w", "b"],
    "bias_residual": ["w", "b", "r"],
    "silu_mul": ["w", "wu"],
}


def model_layers(config):
    """(layer, n, k, layout, epilogues) of one config's linear layers."""
    c = config
    if c["arch"] == "gpt2":
        h, f = c["hidden"], c["intermediate"]
        return [("c_attn", 3 * h, h, "kn", ["none", "bias"]),
                ("attn.c_proj", h, h, "kn", ["none", "bias_residual"]),
                ("mlp.c_fc", f, h, "kn", ["none", "bias_gelu"]),
                ("mlp.c_proj", h, f, "kn", ["none", "bias_residual"]),
                ("lm_head", c["vocab"], h, "nk", ["none"])]
    h, d = c["hidden"], c["head_dim"]
    q, kv = c["heads"] * d, c["kv_heads"] * d
    proj = ["none", "bias"] if c["qkv_bias"] else ["none"]
    layers = [("q", q, h, "nk", proj), ("k|v", kv, h, "nk", proj),
              ("qkv", q + 2 * kv, h, "nk", proj),
              ("o", h, q, "nk", ["none", "residual"])]
    if c["arch"] == "llama":
        f = c["intermediate"]
        layers += [("gate|up", f, h, "nk", ["none", "silu_mul"]),
                   ("gate_up", 2 * f, h, "nk", ["none"]),
                   ("down", h, f, "nk", ["none", "residual"])]
    else:
        f = c["expert_intermediate"]
        layers += [("router", c["experts"], h, "nk", ["none"]),
                   ("expert gate|up", f, h, "nk", ["none", "silu_mul"]),
                   ("expert down", h, f, "nk", ["none"])]
    return layers + [("lm_head", c["vocab"], h, "nk", ["none"])]


def item_id(n, k, layout, epilogue, dtype):
    """"4096x14336-residual-bf16": an item's name in the JSON (`items`,
    `done`, `plan_tables`) and in --emit-mlir's file names."""
    return f"{n}x{k}{'-kn' if layout == 'kn' else ''}-{epilogue}-{dtype}"


def row_item(row):
    """The item id of a result row."""
    return item_id(row["n"], row["k"], row["layout"], row["epilogue"],
                   row["dtype"])


class Item:
    """One (N, K, layout, epilogue, dtype): one sol compile, every M."""

    def __init__(self, model, layer, n, k, layout, epilogue, dtype):
        self.model, self.layer = model, layer
        self.n, self.k, self.layout = n, k, layout
        self.epilogue, self.dtype = epilogue, dtype
        self.also = []

    @property
    def id(self):
        return item_id(self.n, self.k, self.layout, self.epilogue, self.dtype)

    def weight_bytes(self):
        count = 2 if self.epilogue == "silu_mul" else 1
        return count * self.n * self.k * 2


def items_for(models, dtypes, epilogues=None):
    """The sweep's items in table order, shared shapes measured once."""
    by_key = {}
    for model in models:
        for layer, n, k, layout, epis in model_layers(CONFIGS[model]):
            for epilogue in epis:
                if epilogues and epilogue not in epilogues:
                    continue
                key = (n, k, layout, epilogue)
                if key in by_key:
                    by_key[key].also.append(f"{model}/{layer}")
                else:
                    by_key[key] = Item(model, layer, n, k, layout, epilogue,
                                       None)
    items = []
    for dtype in dtypes:
        for shape in by_key.values():
            item = Item(shape.model, shape.layer, shape.n, shape.k,
                        shape.layout, shape.epilogue, dtype)
            item.also = list(shape.also)
            items.append(item)
    return items


# --- cost estimate (for the split and the dry run's part times) ----------

# Guesses, to be refit from the first part's log: a measurement is the heat
# plus 5 windows plus the check; an item's fixed cost its sol compile and
# the two Inductor graphs; a max-autotune compile benchmarks its choices.
SECONDS_PER_MEASUREMENT = 0.45
SECONDS_FIXED_PER_ITEM = 20.0
SECONDS_PER_MAX_AUTOTUNE_COMPILE = 45.0


def estimate_s(item, ms=MS, impls=DEFAULT_IMPLS, autotune_ms=MAX_AUTOTUNE_MS):
    """A rough wall time of one item: fixed compiles, then per M one
    measurement per implementation (longer where one call outlasts the
    window) and the float64 reference."""
    total = SECONDS_FIXED_PER_ITEM
    for m in ms:
        peers = [i for i in impls if has_impl(item, i) and
                 (i != "inductor_max_autotune" or m in autotune_ms)]
        if "inductor_max_autotune" in peers:
            total += SECONDS_PER_MAX_AUTOTUNE_COMPILE
        flops = 2.0 * m * item.n * item.k * (2 if item.epilogue ==
                                             "silu_mul" else 1)
        call_s = max(item.weight_bytes() / 3.0e12, flops / 5.0e14)
        measure = SECONDS_PER_MEASUREMENT + 8 * call_s
        total += len(peers) * measure + flops / 3.0e13
    return total


def split(items, parts):
    """`parts` lists of items, longest-first onto the lightest part (ties:
    the lowest part); each list keeps the table order."""
    order = sorted(range(len(items)), key=lambda i: (-estimate_s(items[i]), i))
    loads, members = [0.0] * parts, [[] for _ in range(parts)]
    for i in order:
        part = min(range(parts), key=lambda p: (loads[p], p))
        loads[part] += estimate_s(items[i])
        members[part].append(i)
    return [[items[i] for i in sorted(m)] for m in members]


# --- sol and torch functions per epilogue ---------------------------------

SOL_DTYPES = {"fp16": "f16", "bf16": "bf16"}


def sol_function(item, m="?"):
    """The sol function of an item at M (`?`: dynamic): its arguments in
    EPILOGUE_ARGS order after x."""
    t = SOL_DTYPES[item.dtype]
    n, k = item.n, item.k
    x, y = f"tensor<{m}x{k}x{t}>", f"tensor<{m}x{n}x{t}>"
    w = f"tensor<{n}x{k}x{t}>" if item.layout == "nk" else \
        f"tensor<{k}x{n}x{t}>"
    tb = " transpose_b" if item.layout == "nk" else ""
    types_of = {"w": w, "wu": w, "b": f"tensor<{n}x{t}>", "r": y}
    names = EPILOGUE_ARGS[item.epilogue]
    args = ", ".join([f"%x: {x}"] + [f"%{a}: {types_of[a]}" for a in names])
    body = [f"%h = sol.matmul %x, %w{tb} : {x}, {w} -> {y}"]
    last = "%h"

    def op(text):
        nonlocal last
        name = f"%e{len(body)}"
        body.append(f"{name} = {text}")
        last = name

    epilogue = item.epilogue
    if epilogue in ("bias", "bias_gelu", "bias_residual"):
        op(f"sol.add {last}, %b : {y}, tensor<{n}x{t}> -> {y}")
    if epilogue == "bias_gelu":
        op(f"sol.gelu tanh {last} : {y}")
    if epilogue in ("residual", "bias_residual"):
        op(f"sol.add {last}, %r : {y}, {y} -> {y}")
    if epilogue == "silu_mul":
        op(f"sol.silu {last} : {y}")
        gate = last
        body.append(f"%u = sol.matmul %x, %wu{tb} : {x}, {w} -> {y}")
        op(f"sol.mul {gate}, %u : {y}, {y} -> {y}")
    name = "sweep_" + item.id.replace("-", "_")
    lines = "\n".join(f"  {line}" for line in body)
    return (f"func.func @{name}({args}) -> {y} {{\n{lines}\n"
            f"  return {last} : {y}\n}}")


def sol_text(item):
    return sol_module(sol_function(item), DIM_RANGE, MS)


def torch_fns(item):
    """impl -> a function of the item's arguments (x then EPILOGUE_ARGS),
    for the implementations the item has (has_impl)."""
    import torch
    f = torch.nn.functional
    kn = item.layout == "kn"

    def mm(x, w):
        return x @ w if kn else f.linear(x, w)

    def mm_bias(x, w, b):
        return torch.addmm(b, x, w) if kn else f.linear(x, w, b)

    def gelu(h):
        return f.gelu(h, approximate="tanh")

    def wt(w):
        return w if kn else w.t()

    eager = {
        "none": lambda x, w: mm(x, w),
        "bias": lambda x, w, b: mm_bias(x, w, b),
        "residual": lambda x, w, r: mm(x, w) + r,
        "bias_gelu": lambda x, w, b: gelu(mm_bias(x, w, b)),
        "bias_residual": lambda x, w, b, r: mm_bias(x, w, b) + r,
        "silu_mul": lambda x, w, wu: f.silu(mm(x, w)) * mm(x, wu),
    }[item.epilogue]
    fns = {"eager": eager}
    addmm = {
        "bias": lambda x, w, b: torch.addmm(b, x, wt(w)),
        "residual": lambda x, w, r: torch.addmm(r, x, wt(w)),
        "bias_gelu": lambda x, w, b: torch._addmm_activation(
            b, x, wt(w), use_gelu=True),
    }.get(item.epilogue)
    if has_impl(item, "addmm"):
        fns["addmm"] = addmm
    return fns


def has_impl(item, impl):
    """Whether `impl` has a row for the item: addmm only where the epilogue
    fits cuBLASLt's and eager is not that call already."""
    if impl != "addmm":
        return True
    if item.epilogue == "bias":
        return item.layout == "nk"
    return item.epilogue in ("residual", "bias_gelu")


def reference(item, args):
    """The item's output in float64 from the same inputs."""
    import torch
    f = torch.nn.functional
    x, *rest = [a.double() for a in args]
    named = dict(zip(EPILOGUE_ARGS[item.epilogue], rest))

    def mm(w):
        return x @ (w if item.layout == "kn" else w.t())

    h = mm(named["w"])
    if "b" in named:
        h = h + named["b"]
    if item.epilogue == "bias_gelu":
        h = f.gelu(h, approximate="tanh")
    if "r" in named:
        h = h + named["r"]
    if item.epilogue == "silu_mul":
        h = f.silu(h) * mm(named["wu"])
    return h


TORCH_DTYPES = {"fp16": "float16", "bf16": "bfloat16"}
# Where the run's tensors live. bench/test_sweep.py runs the loop on the
# CPU (sol's kernels replaced by its fake), so that it is tested without a
# GPU; a real run refuses to start without CUDA.
DEVICE = "cuda"


def synchronize():
    import torch
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def weights_for(item, seed):
    """The item's M-independent arguments (weights, bias) by name."""
    import torch
    gen = torch.Generator(device=DEVICE).manual_seed(seed)
    dtype = getattr(torch, TORCH_DTYPES[item.dtype])
    shape = (item.n, item.k) if item.layout == "nk" else (item.k, item.n)
    out = {}
    for name in EPILOGUE_ARGS[item.epilogue]:
        if name in ("w", "wu"):
            out[name] = (torch.randn(shape, generator=gen, device=DEVICE) /
                         math.sqrt(item.k)).to(dtype)
        elif name == "b":
            out[name] = torch.randn(item.n, generator=gen,
                                    device=DEVICE).to(dtype)
    return out


def args_at(item, weights, m, seed):
    """x and the residual at M, then the arguments in function order."""
    import torch
    gen = torch.Generator(device=DEVICE).manual_seed(seed)
    dtype = getattr(torch, TORCH_DTYPES[item.dtype])
    x = torch.randn(m, item.k, generator=gen, device=DEVICE).to(dtype)
    args = [x]
    for name in EPILOGUE_ARGS[item.epilogue]:
        if name == "r":
            args.append(torch.randn(m, item.n, generator=gen,
                                    device=DEVICE).to(dtype))
        else:
            args.append(weights[name])
    return args


def m_sized(item):
    """Positions of the item's arguments whose outermost dim is M."""
    return [0] + [1 + i for i, name in enumerate(EPILOGUE_ARGS[item.epilogue])
                  if name == "r"]


def rotation(args, copies_bytes):
    """Copies of `args` (the first is `args`) whose bytes together exceed
    `copies_bytes`."""
    per_set = sum(a.numel() * a.element_size() for a in args)
    count = max(1, min(256, math.ceil(copies_bytes / per_set)))
    return [args] + [[a.clone() for a in args] for _ in range(count - 1)]


def marked_dynamic(item, sets):
    """Aliases of the sets (detach: the same storage, no view base for
    dynamo to trace) with M marked dynamic on the M-sized tensors, for the
    default torch.compile (a mark holds even under dynamic=False, so
    max-autotune's per-M compiles get the unmarked tensors)."""
    import torch
    if sets[0][0].shape[0] < 2:   # dynamo specialises 1 whatever the mark
        return sets
    out = []
    for arg_set in sets:
        views = [a.detach() for a in arg_set]
        for i in m_sized(item):
            torch._dynamo.mark_dynamic(views[i], 0)
        out.append(views)
    return out


def rotating(fn, sets):
    """A call of fn on the next set of inputs, round robin."""
    state = {"i": 0}

    def call():
        i = state["i"]
        state["i"] = (i + 1) % len(sets)
        return fn(*sets[i])
    return call


def own_code(fn):
    """fn with a code object of its own: Dynamo caches compiled graphs per
    code object, so two compiled wrappers of one lambda would share (and
    count against one recompile limit)."""
    return types.FunctionType(fn.__code__.replace(), fn.__globals__,
                              fn.__name__, fn.__defaults__, fn.__closure__)


# --- the run ---------------------------------------------------------------

class OutOfBudget(Exception):
    pass


class CudaContextLost(Exception):
    """A launch left the CUDA context unusable (a kernel faulted): every
    later row would fail for it, so the part stops."""


def is_sticky_cuda_error(message):
    return any(text in message for text in (
        "illegal memory access", "ILLEGAL_ADDRESS", "unspecified launch",
        "LAUNCH_FAILED", "misaligned address", "illegal instruction"))


# The budget counts from the process's start (this import), as the device
# call's limit does.
START = time.perf_counter()


class Budget:
    def __init__(self, seconds):
        self.end = START + seconds

    def need(self, seconds):
        """Raises OutOfBudget unless `seconds` are left."""
        if time.perf_counter() + seconds > self.end:
            raise OutOfBudget()


class Sweep:
    def __init__(self, args, doc, write):
        self.args, self.doc, self.write = args, doc, write
        self.budget = Budget(args.budget_s)
        self.written = time.perf_counter()

    def add(self, item, **row):
        full = {"model": item.model, "layer": item.layer, "also": item.also,
                "n": item.n, "k": item.k, "layout": item.layout,
                "dtype": item.dtype, "epilogue": item.epilogue}
        full.update(row)
        self.doc["rows"].append(full)
        print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else
                       f"{k}={v}" for k, v in full.items() if k != "also"),
              flush=True)
        # The file is rewritten every few seconds (each write is the whole
        # file: after every row it would cost a part a minute), after each
        # item and at the end, so a killed run loses seconds of rows.
        if time.perf_counter() - self.written > 10:
            self.write()
            self.written = time.perf_counter()

    def time_us(self, fn, row, sets=1):
        """Microseconds per call; with --graphs from CUDA-graph replays of
        at least one call per input set, so the rotation still streams the
        weights from HBM (row["timing"] says whether the capture worked)."""
        if self.args.graphs:
            ms, row["timing"] = time_graph_call(
                fn, heat_s=self.args.heat_s, calls=max(20, sets))
            return ms * 1e3
        return time_call(fn, heat_s=self.args.heat_s,
                         window_s=self.args.window_s) * 1e3

    def measure(self, item, m, impl, fn, sets, ref, **extra):
        """Checks fn against the reference at M, then times it; one row."""
        self.budget.need(self.args.heat_s + 1.0)
        row = dict(m=m, impl=impl, us=None, ok=False, rel_err=None, **extra)
        try:
            start = time.perf_counter()
            got = fn(*sets[0])
            if isinstance(got, (list, tuple)):
                got = got[0]
            synchronize()
            if impl.startswith("inductor"):
                row["first_call_s"] = time.perf_counter() - start
            row["rel_err"] = rel_err(got, ref)
            row["ok"] = row["rel_err"] <= REL_TOL
            del got
            if row["ok"]:
                row["us"] = self.time_us(rotating(fn, sets), row,
                                         len(sets))
        except OutOfBudget:
            raise
        except Exception as error:
            row["error"] = f"{type(error).__name__}: {error}"[:400]
        self.add(item, **row)
        if is_sticky_cuda_error(row.get("error", "")):
            raise CudaContextLost(f"{item.id} M={m} {impl}: {row['error']}")

    def run_item(self, item, seed):
        import torch
        import sol
        impls = [i for i in self.args.impls if has_impl(item, i)]
        fns = torch_fns(item)
        compiled = {}
        sol_run, sol_error, compile_s = None, None, None
        if "sol" in impls:
            self.budget.need(30)
            start = time.perf_counter()
            try:
                compilation = sol.compile(sol_text(item),
                                          options=self.args.sol_options)
                compile_s = time.perf_counter() - start
                sol_run = sol_runner(compilation)
                self.doc["plan_tables"][item.id] = sol_plans(compilation)
            except Exception as error:
                sol_error = f"{type(error).__name__}: {error}"[:400]
        torch._dynamo.reset()
        if "inductor" in impls:
            compiled["inductor"] = torch.compile(own_code(fns["eager"]))
        weights = weights_for(item, seed)
        from sol.inductor import l2_bytes
        l2 = l2_bytes(0) if DEVICE == "cuda" else 1 << 20
        for m in self.args.ms:
            self.budget.need(5)
            sets = rotation(args_at(item, weights, m, seed + m),
                            0 if self.args.l2_warm else 3 * l2)
            ref = reference(item, sets[0])
            for impl in impls:
                if impl == "sol":
                    if sol_error:
                        self.add(item, m=m, impl="sol", us=None, ok=False,
                                 rel_err=None, error=sol_error)
                        continue
                    plan, t_pred, t_pred_m = sol_plan_at(compilation, m)
                    self.measure(item, m, "sol", lambda *a: sol_run(list(a)),
                                 sets, ref, plan=plan, t_pred_us=t_pred,
                                 t_pred_m=t_pred_m,
                                 compile_s=compile_s if m == self.args.ms[0]
                                 else None)
                elif impl == "inductor_max_autotune":
                    if m not in self.args.max_autotune_ms:
                        continue
                    self.budget.need(self.args.max_autotune_reserve_s)
                    fn = torch.compile(own_code(fns["eager"]),
                                       mode="max-autotune-no-cudagraphs",
                                       dynamic=False)
                    self.measure(item, m, impl, fn, sets, ref)
                elif impl == "inductor":
                    self.measure(item, m, impl, compiled[impl],
                                 marked_dynamic(item, sets), ref)
                else:
                    self.measure(item, m, impl, fns[impl], sets, ref)
            del sets, ref
        compiled.clear()
        torch._dynamo.reset()
        if DEVICE == "cuda":
            torch.cuda.empty_cache()


def parse_part(text):
    index, count = (int(v) for v in text.split("/"))
    if not 1 <= index <= count:
        raise argparse.ArgumentTypeError(f"--part {text}: want N/P, "
                                         "1 <= N <= P")
    return index, count


def csv(kind, allowed=None):
    def parse(text):
        values = [kind(v) for v in text.split(",") if v]
        bad = [v for v in values if allowed is not None and v not in allowed]
        if bad:
            raise argparse.ArgumentTypeError(
                f"unknown {', '.join(map(str, bad))} (known: "
                f"{', '.join(map(str, allowed))})")
        return values
    return parse


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out")
    parser.add_argument("--part", type=parse_part, default=(1, 1))
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS),
                        help="comma-separated, or 'all': "
                        + ", ".join(CONFIGS))
    parser.add_argument("--dtypes", type=csv(str, DTYPES), default=DTYPES)
    parser.add_argument("--epilogues", type=csv(str, list(EPILOGUE_ARGS)))
    parser.add_argument("--items", type=csv(str),
                        help="only these item ids (a part's `left`)")
    parser.add_argument("--ms", type=csv(int), default=MS)
    parser.add_argument("--impls", type=csv(str, IMPLS),
                        default=DEFAULT_IMPLS)
    parser.add_argument("--max-autotune-ms", type=csv(int),
                        default=MAX_AUTOTUNE_MS)
    parser.add_argument("--max-autotune-reserve-s", type=float, default=120,
                        help="budget a max-autotune compile needs left")
    parser.add_argument("--budget-s", type=float, default=420)
    parser.add_argument("--sol-options", default=None,
                        help="sol-to-ptx options for every sol compile, as "
                        "sol-opt spells them (e.g. small-m-tma=true)")
    parser.add_argument("--heat-s", type=float, default=0.25)
    parser.add_argument("--window-s", type=float, default=0.02)
    parser.add_argument("--l2-warm", action="store_true")
    parser.add_argument("--graphs", action="store_true",
                        help="time CUDA-graph replays of 20 calls: the "
                        "kernels without the host's launch path (each row "
                        "says `timing`: graph, or calls where a capture "
                        "failed)")
    parser.add_argument("--resume", metavar="FILE")
    parser.add_argument("--dry-run", action="store_true",
                        help="no GPU: list the part's items with estimated "
                        "times, compile the first --compile of them with "
                        "sol's C API and print their plans per M")
    parser.add_argument("--compile", type=int, default=2)
    parser.add_argument("--emit-mlir", metavar="DIR",
                        help="write each item's sol module to DIR and exit")
    args = parser.parse_args(argv)
    args.models = list(CONFIGS) if args.models == "all" else \
        [m for m in args.models.split(",") if m]
    unknown = [m for m in args.models if m not in CONFIGS]
    if unknown:
        parser.error(f"--models: unknown {', '.join(unknown)} (known: "
                     f"{', '.join(CONFIGS)}, all)")
    if max(args.ms) > DIM_RANGE[1] or min(args.ms) < DIM_RANGE[0]:
        parser.error(f"--ms outside the kernel sets' range {DIM_RANGE}")
    if not (args.out or args.dry_run or args.emit_mlir):
        parser.error("--out is required (or --dry-run, --emit-mlir)")
    return args


def part_items(args):
    items = items_for(args.models, args.dtypes, args.epilogues)
    if args.items:
        unknown = set(args.items) - {i.id for i in items}
        if unknown:
            sys.exit(f"sweep.py: --items: no item {', '.join(sorted(unknown))}"
                     " among the --models, --dtypes and --epilogues given")
        items = [i for i in items if i.id in args.items]
    index, count = args.part
    return items, split(items, count)[index - 1]


def emit(args, items):
    os.makedirs(args.emit_mlir, exist_ok=True)
    for item in items:
        with open(os.path.join(args.emit_mlir, item.id + ".mlir"), "w") as f:
            f.write(sol_text(item))
    print(f"{args.emit_mlir}: {len(items)} modules")


def dry_run(args, all_items, items):
    """The part's items and times, every module built, the first few
    compiled here (C API, PTX through ptxas) and their plans per M."""
    import sol
    index, count = args.part
    def estimate(item):
        return estimate_s(item, args.ms, args.impls, args.max_autotune_ms)
    loads = [sum(estimate(i) for i in p) for p in split(all_items, count)]
    print(f"{len(all_items)} items in {count} parts, estimated "
          + ", ".join(f"{s / 60:.1f}" for s in loads) + " min")
    for item in items:
        sol_text(item)
        print(f"{item.id:28} {item.model}/{item.layer} "
              f"impls={','.join(i for i in args.impls if has_impl(item, i))}"
              f" ~{estimate(item):.0f} s"
              + (f" also {','.join(item.also)}" if item.also else ""))
    for item in items[:args.compile]:
        start = time.perf_counter()
        compilation = sol.compile(sol_text(item), options=args.sol_options)
        print(f"{item.id}: compiled in {time.perf_counter() - start:.1f} s, "
              f"{len(compilation.kernels)} kernel(s), "
              f"{len(sol_plans(compilation))} plan rows")
        for m in args.ms:
            plan, t_pred, t_pred_m = sol_plan_at(compilation, m)
            print(f"  M={m:5} {plan:40} t_pred {t_pred:.2f} us"
                  + ("" if t_pred_m == m else f" (at M={t_pred_m})"))


def main(argv=None):
    args = parse_args(argv)
    all_items, items = part_items(args)
    if args.emit_mlir:
        emit(args, items)
        return 0
    if args.dry_run:
        dry_run(args, all_items, items)
        return 0
    import torch
    import sol
    import torch._dynamo
    config = torch._dynamo.config
    # Each compiled wrapper has its own code object (own_code) and the
    # caches are reset per item; max-autotune compiles once per M, so the
    # limit must exceed that, and hitting it must fail, not fall back to
    # eager unseen.
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(config, name):
            setattr(config, name, max(getattr(config, name), 64))
    if hasattr(config, "fail_on_recompile_limit_hit"):
        config.fail_on_recompile_limit_hit = True
    if DEVICE == "cuda" and not torch.cuda.is_available():
        sys.exit("sweep.py: no CUDA device (--dry-run and --emit-mlir run "
                 "without one)")
    doc = {"card": torch.cuda.get_device_name() if DEVICE == "cuda"
           else DEVICE,
           "date": datetime.date.today().isoformat(),
           "torch": torch.__version__, "sol_build": sol.build_id()[:16],
           "args": sys.argv[1:] if argv is None else list(argv),
           "part": list(args.part),
           "items": [i.id for i in items], "done": [], "left": [],
           "plan_tables": {}, "rows": []}
    if args.resume and os.path.exists(args.resume):
        with open(args.resume) as f:
            old = json.load(f)
        # An item cut short is measured again, its rows dropped.
        doc["rows"] = [r for r in old["rows"] if row_item(r) in old["done"]]
        doc["done"] = list(old["done"])
        doc["plan_tables"] = {k: v for k, v in old["plan_tables"].items()
                              if k in old["done"]}

    def write():
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)

    sweep = Sweep(args, doc, write)
    todo = [i for i in items if i.id not in doc["done"]]
    try:
        for number, item in enumerate(todo):
            doc["left"] = [i.id for i in todo[number:]]
            sweep.run_item(item, seed=zlib.crc32(item.id.encode()))
            doc["done"].append(item.id)
            write()
    except OutOfBudget:
        print(f"budget of {args.budget_s:.0f} s spent: {len(doc['left'])} "
              f"item(s) left: {', '.join(doc['left'])}", flush=True)
    except CudaContextLost as lost:
        doc["fatal"] = str(lost)
        print(f"stopped: the CUDA context is lost ({lost}); "
              f"{len(doc['left'])} item(s) left", flush=True)
        write()
        return 1
    else:
        doc["left"] = []
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
