#!/usr/bin/env python3
"""sol against its peers on the workloads that judge it (issue 6).

Runs on the GPU machine (Python 3.12, torch, triton, numpy, matplotlib; no
MLIR): sol's kernels come precompiled in a bundle made here by
scripts/bench-bundle.sh. For every workload x dtype it

  * draws seeded random inputs (never zeros) and a float64 reference;
  * runs each implementation once and checks it against the reference
    (|out - ref| <= 1e-2 + 1e-2 |ref| on >= 99 % of the elements, no NaN/Inf;
    sol's outputs are poisoned with NaN first); a failing one is reported and
    not timed;
  * times it as ../shared/PEERS.md did (after 1 s of the same calls, so that
    every implementation runs at the power-capped steady state; section 22
    of bench/NOTES.md): a CUDA graph of 20 back-to-back calls
    rotating among input sets that together exceed twice the 60 MB L2, median
    of 10 replays, per-call time = replay time / 20;
  * reports us, TFLOP/s, GB/s and SOL = T_ideal / us with
    T_ideal = max(FLOPs / 989e12, bytes / 4.8e12) (H200 datasheet).

Implementations: sol (manifest + cubin, launched through sol.Kernel, the C
API's launch library that sol-run uses too, on torch's current stream; the
library is $SOL_CAPI_LIB or .capi/libsol_capi.so.xz, see import_sol), eager
(plain torch ops), cublas_addmm (torch.addmm with the residual as C; o_proj
only), inductor (torch.compile) and inductor_max_autotune
(torch.compile(mode="max-autotune-no-cudagraphs")).

Writes <out>/<date>-<card>.json after every row (a killed run keeps what it
measured), a roofline picture <same stem>.png, and prints a table last.

  python3 bench/run_bench.py --bundle bench-bundle --out "${OUT:-bench/results}"
  python3 bench/run_bench.py --device cpu --tiny     # CPU smoke of the peers,
                                                     # checks only, no timing

Everything above the "torch" section imports only the standard library and
sol's package (ctypes over libsol_capi.so), so bench/test_run_bench.py can
test it without torch or a GPU.
"""

import argparse
import ctypes
import datetime
import itertools
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import traceback

# ---------------------------------------------------------------------------
# The card and the method (PEERS.md)
# ---------------------------------------------------------------------------

# H200 SXM datasheet, dense fp16/bf16 tensor core, HBM3e; the L2 size decides
# how many input sets are rotated.
PEAK_FLOPS = 989e12
PEAK_BW = 4.8e12
L2_BYTES = 60e6

ATOL = 1e-2
RTOL = 1e-2
MIN_SHARE = 0.99

CALLS_PER_GRAPH = 20
REPLAYS = 10
# Under large matmuls the H200 sits at its 700 W cap and its clock sags over
# the first tens of milliseconds of load, so whichever implementation was
# timed first ran on a cooler card (bench/NOTES.md section 22). Each one is
# replayed this long before its timed replays: all are timed at the steady
# state a serving workload runs at.
HEAT_S = 1.0
QUICK_REPLAYS = 3
MAX_SETS = 64

DTYPES = {"fp16": {"torch": "float16", "manifest": "f16", "size": 2},
          "bf16": {"torch": "bfloat16", "manifest": "bf16", "size": 2}}

IMPLS = ["sol", "eager", "cublas_addmm", "inductor", "inductor_max_autotune"]
PEERS = IMPLS[1:]

# ---------------------------------------------------------------------------
# Workloads: shapes and the two numbers (FLOPs, bytes)
# ---------------------------------------------------------------------------

# kind "linear": out = epilogue(x[..., K] @ W[N, K]^T ...); the inputs list
# gives (name, shape) in the order of the sol function's arguments. `roles`
# says which program op of sol's manifest each input must feed (op name,
# operand position or None for any), to bind manifest args to the inputs.
WORKLOADS = {
    "oproj_prefill": {
        "title": "o_proj + residual, prefill: x[16,512,2560] @ W[2560,2560]^T + r",
        "kind": "oproj", "x": (16, 512, 2560), "n": 2560,
        "tiny": {"x": (2, 8, 64), "n": 48}},
    "oproj_decode1": {
        "title": "o_proj + residual, decode: x[1,1,2560]",
        "kind": "oproj", "x": (1, 1, 2560), "n": 2560,
        "tiny": {"x": (1, 1, 64), "n": 48}},
    "oproj_decode16": {
        "title": "o_proj + residual, 16-token decode: x[16,1,2560]",
        "kind": "oproj", "x": (16, 1, 2560), "n": 2560,
        "tiny": {"x": (16, 1, 64), "n": 48}},
    "mlp_up_gelu": {
        "title": "MLP up + bias + GELU(tanh): x[8192,2560] @ W[10240,2560]^T + b",
        "kind": "mlp", "x": (8192, 2560), "n": 10240,
        "tiny": {"x": (24, 64), "n": 80}},
    "swiglu_residual": {
        "title": "SwiGLU + residual: silu(g) * u + r, 64 Mi elements",
        "kind": "swiglu", "shape": (8192, 8192),
        "tiny": {"shape": (32, 40)}},
}

ROLES = {
    "oproj": {"x": ("matmul", 0), "w": ("matmul", 1), "r": ("add", None)},
    "mlp": {"x": ("matmul", 0), "w": ("matmul", 1), "b": ("add", None)},
    "swiglu": {"g": ("silu", 0), "u": ("mul", None), "r": ("add", None)},
}

# Elementwise FLOPs per output element, as sol's cost model counts them
# (SolOps.td, getFlopsPerElement: add 1, gelu(tanh) 9, silu 5, mul 1).
# T_ideal counts them with the matmul's, as PEERS.md's figures do (its MLP
# SOLs need T_ideal = 435.1 us = (2MNK + 10 MN) / 989e12, not 434.3: 0.2 %;
# sol's manifests put tensor-core FLOPs alone into their t_ideal_us).
# `tflops` is tensor-core FLOPs / time (SOL-ExecBench); `tflops_all` adds these.
EW_PER_ELEMENT = {"oproj": 1, "mlp": 1 + 9, "swiglu": 5 + 1 + 1}


def prod(values):
    result = 1
    for v in values:
        result *= v
    return result


def workload_spec(name, tiny=False):
    """Shapes of one workload: {'kind', 'inputs': [(name, shape)], 'output'}."""
    w = dict(WORKLOADS[name])
    if tiny:
        w.update(w["tiny"])
    kind = w["kind"]
    if kind in ("oproj", "mlp"):
        x = tuple(w["x"])
        k, n = x[-1], w["n"]
        out = x[:-1] + (n,)
        third = ("r", out) if kind == "oproj" else ("b", (n,))
        inputs = [("x", x), ("w", (n, k)), third]
        m = prod(x[:-1])
        dims = {"m": m, "n": n, "k": k}
    else:
        shape = tuple(w["shape"])
        out = shape
        inputs = [("g", shape), ("u", shape), ("r", shape)]
        dims = {"elements": prod(shape)}
    return {"name": name, "kind": kind, "title": w["title"], "inputs": inputs,
            "output": out, "dims": dims}


def tc_flops(spec):
    """Tensor-core FLOPs: 2 M N K for the matmul, 0 for an elementwise chain."""
    if spec["kind"] in ("oproj", "mlp"):
        d = spec["dims"]
        return 2 * d["m"] * d["n"] * d["k"]
    return 0


def ew_flops(spec):
    """Elementwise FLOPs of the epilogue or chain (the same for every impl)."""
    return EW_PER_ELEMENT[spec["kind"]] * prod(spec["output"])


def min_bytes(spec, dtype):
    """Each input read once, the output written once."""
    size = DTYPES[dtype]["size"]
    return size * (sum(prod(s) for _, s in spec["inputs"]) + prod(spec["output"]))


def input_bytes(spec, dtype):
    size = DTYPES[dtype]["size"]
    return size * sum(prod(s) for _, s in spec["inputs"])


def t_ideal_us(flops, nbytes, peak_flops=PEAK_FLOPS, peak_bw=PEAK_BW):
    return max(flops / peak_flops, nbytes / peak_bw) * 1e6


def num_sets(set_bytes, l2_bytes=L2_BYTES, cap=MAX_SETS):
    """Input sets so that together they exceed twice the L2."""
    if set_bytes <= 0:
        return 1
    return int(max(1, min(cap, math.floor(2 * l2_bytes / set_bytes) + 1)))


def workload_numbers(spec, dtype):
    """The two numbers: FLOPs (tensor-core and elementwise) and minimum bytes;
    T_ideal from them on the H200 datasheet."""
    flops, ew = tc_flops(spec), ew_flops(spec)
    nbytes = min_bytes(spec, dtype)
    return {"flops": flops, "ew_flops": ew, "bytes": nbytes,
            "intensity": (flops + ew) / nbytes,
            "t_ideal_us": t_ideal_us(flops + ew, nbytes),
            "bound": "compute" if (flops + ew) / PEAK_FLOPS > nbytes / PEAK_BW else "memory"}


def derive_rates(row, spec, dtype, us, manifest_cost=None):
    """us -> tflops (tensor-core), tflops_all, gbps, sol; sol rows: the prediction."""
    nums = workload_numbers(spec, dtype)
    ew = nums["ew_flops"]
    row["us"] = us
    row["tflops"] = nums["flops"] / (us * 1e6)
    row["tflops_all"] = (nums["flops"] + ew) / (us * 1e6)
    row["gbps"] = nums["bytes"] / (us * 1e3)
    row["sol"] = nums["t_ideal_us"] / us
    if manifest_cost and manifest_cost.get("t_pred_us"):
        row["t_pred_over_t_measured"] = manifest_cost["t_pred_us"] / us
    return row


# ---------------------------------------------------------------------------
# Manifests (runtime/Manifest.h is the contract)
# ---------------------------------------------------------------------------

class ManifestError(Exception):
    pass


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_sol = None


def import_sol():
    """sol's Python package (python/sol): its libsol_capi.so reads, checks
    and launches sol's kernels through the launch library sol-run uses
    (runtime/Launch.h), so the bench has no launcher of its own. The library
    is $SOL_CAPI_LIB, else .capi/libsol_capi.so.xz (what scripts/gpu-all.sh
    carries to the GPU machine: scripts/build-static-capi.sh's, unpacked
    once into a temporary folder; the probe's children inherit the path),
    else the package's own lookup (a wheel's, or build/lib)."""
    global _sol
    if _sol is not None:
        return _sol
    packed = os.path.join(ROOT, ".capi", "libsol_capi.so.xz")
    if not os.environ.get("SOL_CAPI_LIB") and os.path.isfile(packed):
        import lzma
        path = os.path.join(tempfile.mkdtemp(prefix="sol-capi-"), "libsol_capi.so")
        with lzma.open(packed) as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.environ["SOL_CAPI_LIB"] = path
    try:
        import sol
    except ImportError:
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import sol
    _sol = sol
    return sol


def parse_manifest(text, directory):
    """One manifest, checked by the launcher's own reader (sol's C API:
    runtime/Manifest.cpp) and returned as a plain dict of what the bench
    reads: kernel, binaries (absolute paths), launch, args, program, cost."""
    sol = import_sol()
    try:
        sol.check_manifest(text)
    except sol.SolError as e:
        raise ManifestError(str(e).replace("sol_manifest_check: ", "", 1))
    doc = json.loads(text)
    if doc.get("dynamic_dim") is not None:
        raise ManifestError("a dynamic manifest; the bench launches static kernels only")

    def path(key):
        value = doc.get(key)
        if not value:
            return None
        return value if os.path.isabs(value) else os.path.join(directory, value)

    cubin, ptx = path("cubin"), path("ptx")
    if not cubin and not ptx:
        raise ManifestError('neither "cubin" nor "ptx"')
    launch = doc["launch"]

    def dims(value):
        return tuple(value) + (1,) * (3 - len(value))

    args = [{"name": a["name"], "role": a["role"], "dtype": a["dtype"],
             "shape": tuple(a["shape"])} for a in doc["args"]]
    return {"kernel": doc["kernel"], "cubin": cubin, "ptx": ptx,
            "grid": dims(launch["grid"]), "block": dims(launch["block"]),
            "smem": launch.get("smem", 0), "cluster": dims(launch.get("cluster", [1])),
            "tensor_maps": doc.get("tensor_maps") or [], "args": args,
            "inputs": [a for a in args if a["role"] == "input"],
            "outputs": [a for a in args if a["role"] == "output"],
            "program": doc["program"], "cost": doc.get("cost") or {},
            "plan": doc.get("plan"), "target": doc.get("target") or {}, "text": text}


def load_manifest(path):
    with open(path) as f:
        text = f.read()
    try:
        return parse_manifest(text, os.path.dirname(os.path.abspath(path)))
    except ManifestError as e:
        raise ManifestError("%s: %s" % (path, e))


def arg_uses(manifest):
    """For each manifest input index: the set of (op, operand position) it feeds."""
    program = manifest["program"]
    value_to_arg = {i: op["index"] for i, op in enumerate(program) if op["op"] == "arg"}
    uses = {i: set() for i in range(len(manifest["inputs"]))}
    for op in program:
        for pos, operand in enumerate(op.get("operands", [])):
            if operand in value_to_arg:
                uses[value_to_arg[operand]].add((op["op"], pos))
    return uses


def bind_args(manifest, spec, dtype):
    """Which workload input goes to each manifest input: a list of input names
    in manifest order. Shapes and dtypes must match, and each input must feed
    the program op its role says (the matmul's lhs is x, ...); the argument
    order of the sol function is tried first."""
    want = DTYPES[dtype]["manifest"]
    if len(manifest["outputs"]) != 1:
        raise ManifestError("%d outputs; the workload has one" % len(manifest["outputs"]))
    out = manifest["outputs"][0]
    if out["shape"] != tuple(spec["output"]) or out["dtype"] != want:
        raise ManifestError("output %s %s, expected %s %s" % (
            out["dtype"], list(out["shape"]), want, list(spec["output"])))
    if len(manifest["inputs"]) != len(spec["inputs"]):
        raise ManifestError("%d inputs, the workload has %d" % (
            len(manifest["inputs"]), len(spec["inputs"])))
    uses = arg_uses(manifest)
    roles = ROLES[spec["kind"]]
    for perm in itertools.permutations(spec["inputs"]):
        ok = True
        for i, (name, shape) in enumerate(perm):
            arg = manifest["inputs"][i]
            if arg["shape"] != tuple(shape) or arg["dtype"] != want:
                ok = False
                break
            op, pos = roles[name]
            if not any(u[0] == op and (pos is None or u[1] == pos) for u in uses[i]):
                ok = False
                break
        if ok:
            return [name for name, _ in perm]
    raise ManifestError("cannot bind the manifest's inputs %s to the workload's %s" % (
        [(a["dtype"], list(a["shape"])) for a in manifest["inputs"]],
        [(n, list(s)) for n, s in spec["inputs"]]))


def find_kernels_dir(bundle):
    """The bundle's kernels/ folder; unpacks bench-kernels.tgz when needed."""
    if bundle is None:
        return None
    for candidate in (bundle, os.path.join(bundle, "kernels")):
        if os.path.isfile(os.path.join(candidate, "bundle.json")):
            return candidate
    tgz = os.path.join(bundle, "bench-kernels.tgz")
    if not os.path.isfile(tgz):
        tgz = bundle if bundle.endswith(".tgz") and os.path.isfile(bundle) else None
    if tgz is None:
        raise FileNotFoundError("no bundle at %s (scripts/bench-bundle.sh makes one)" % bundle)
    dest = tempfile.mkdtemp(prefix="sol-bench-")
    with tarfile.open(tgz) as tar:
        for member in tar.getmembers():  # the bundle is ours, but stay inside dest
            if member.name.startswith("/") or ".." in member.name.split("/"):
                raise ValueError("unsafe path in bundle: %s" % member.name)
        tar.extractall(dest)
    return os.path.join(dest, "kernels")


def bundle_manifests(kernels_dir, workload, dtype):
    d = os.path.join(kernels_dir, "%s_%s" % (workload, dtype))
    if not os.path.isdir(d):
        raise FileNotFoundError("bundle has no %s_%s/ (rebuild it with scripts/bench-bundle.sh)" % (workload, dtype))
    return [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".json")]


# ---------------------------------------------------------------------------
# Results: schema, table, roofline
# ---------------------------------------------------------------------------

ROW_KEYS = {"workload": str, "dtype": str, "impl": str, "pass": bool}
ROW_NUMBERS = ["us", "tflops", "gbps", "sol", "max_rel_err"]
TOP_KEYS = {"date": str, "card": str, "torch": str, "rows": list, "method": dict,
            "workloads": dict}


def validate_results(doc):
    """Problems with a results document, as a list of strings (empty: fine)."""
    problems = []
    for key, typ in TOP_KEYS.items():
        if not isinstance(doc.get(key), typ):
            problems.append("top-level %r missing or not %s" % (key, typ.__name__))
    for i, row in enumerate(doc.get("rows") or []):
        where = "rows[%d]" % i
        for key, typ in ROW_KEYS.items():
            if not isinstance(row.get(key), typ):
                problems.append("%s: %r missing or not %s" % (where, key, typ.__name__))
        for key in ROW_NUMBERS:
            if key not in row:
                problems.append("%s: %r missing" % (where, key))
            elif row[key] is not None and not isinstance(row[key], (int, float)):
                problems.append("%s: %r not a number or null" % (where, key))
        if (doc.get("device", "cuda") == "cuda" and row.get("pass") and row.get("us") is None
                and not row.get("error")):
            problems.append("%s: passed but has no time and no error" % where)
        if row.get("us") is not None and not row.get("pass"):
            problems.append("%s: timed although it failed the check" % where)
        if row.get("impl") == "sol":
            for key in ("predicted_us", "sol_pred", "t_pred_over_t_measured"):
                if key not in row:
                    problems.append("%s: sol row without %r" % (where, key))
    return problems


def new_row(workload, dtype, impl):
    return {"workload": workload, "dtype": dtype, "impl": impl, "pass": False,
            "us": None, "tflops": None, "tflops_all": None, "gbps": None,
            "sol": None, "max_rel_err": None, "max_abs_err": None, "share": None,
            "timing": None, "error": None}


def _cell(row):
    if row is None:
        return "-"
    if row.get("us") is not None:
        return "%.1f (%.3f)" % (row["us"], row["sol"])
    if row.get("error") and row["error"].startswith("skipped"):
        return "skipped"
    if row.get("pass"):
        return "pass, untimed"
    return "FAIL" if row.get("max_rel_err") is not None else "ERROR"


def best_peer(rows):
    timed = [r for r in rows if r["impl"] != "sol" and r.get("us") is not None]
    return min(timed, key=lambda r: r["us"]) if timed else None


def format_table(rows, impls=None):
    """workload, dtype, each impl's us (SOL), best peer, sol vs best peer."""
    impls = impls or IMPLS
    groups = []
    for r in rows:
        key = (r["workload"], r["dtype"])
        if key not in groups:
            groups.append(key)
    short = {"sol": "sol", "eager": "eager", "cublas_addmm": "cublas",
             "inductor": "inductor", "inductor_max_autotune": "max-autotune"}
    header = ["workload", "dtype"] + ["%s us (SOL)" % short.get(i, i) for i in impls] + \
        ["best peer", "sol vs best"]
    lines = [header]
    for w, d in groups:
        sel = [r for r in rows if r["workload"] == w and r["dtype"] == d]
        by_impl = {r["impl"]: r for r in sel}
        line = [w, d] + [_cell(by_impl.get(i)) for i in impls]
        best = best_peer(sel)
        sol = by_impl.get("sol")
        line.append("%s %.1f" % (short.get(best["impl"], best["impl"]), best["us"]) if best else "-")
        if best and sol and sol.get("us"):
            # > 1: sol is faster than the best peer.
            line.append("%.2fx" % (best["us"] / sol["us"]))
        else:
            line.append("-")
        lines.append(line)
    widths = [max(len(l[c]) for l in lines) for c in range(len(header))]
    out = []
    for n, l in enumerate(lines):
        out.append("  ".join(cell.ljust(widths[c]) if c < 2 else cell.rjust(widths[c])
                             for c, cell in enumerate(l)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    out.append("us = device time per call; (SOL) = T_ideal / us; "
               "sol vs best = best peer us / sol us (> 1: sol faster)")
    return "\n".join(out)


def write_roofline(rows, path, workloads_meta, title="", peak_flops=PEAK_FLOPS, peak_bw=PEAK_BW):
    """Log-log roofline: x = FLOP/byte, y = attained TFLOP/s (all FLOPs, so the
    elementwise chain shows), one marker per (workload, dtype, impl); sol's
    kernels are large red-edged stars."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    pts = []
    for r in rows:
        if r.get("us") is None:
            continue
        meta = workloads_meta["%s/%s" % (r["workload"], r["dtype"])]
        flops = meta["flops"] + meta["ew_flops"]
        if flops <= 0:
            continue
        pts.append((r, flops / meta["bytes"], flops / (r["us"] * 1e6)))
    fig, ax = plt.subplots(figsize=(9, 6.5))
    xs = [p[1] for p in pts] or [1.0]
    lo, hi = min(xs + [0.5]) / 2, max(xs + [peak_flops / peak_bw]) * 4
    grid = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(grid, [min(peak_flops, x * peak_bw) / 1e12 for x in grid], color="black", lw=1.5)
    ridge = peak_flops / peak_bw
    ax.axvline(ridge, color="gray", lw=0.6, ls=":")
    ax.text(ridge * 1.1, peak_flops / 1e12 * 1.08, "%.0f TFLOP/s" % (peak_flops / 1e12), fontsize=8)
    ax.text(lo * 1.2, lo * 1.2 * peak_bw / 1e12 * 1.6, "%.1f TB/s" % (peak_bw / 1e12), fontsize=8,
            rotation=28)
    workloads = sorted({r["workload"] for r, _, _ in pts})
    colors = {w: "C%d" % i for i, w in enumerate(workloads)}
    markers = {"eager": "o", "cublas_addmm": "s", "inductor": "^",
               "inductor_max_autotune": "v", "sol": "*"}
    for r, x, y in pts:
        is_sol = r["impl"] == "sol"
        ax.scatter([x * (1.04 if r["dtype"] == "bf16" else 1.0)], [y],
                   marker=markers.get(r["impl"], "x"), s=260 if is_sol else 45,
                   facecolor=colors[r["workload"]] if r["dtype"] == "fp16" else "none",
                   edgecolor="red" if is_sol else colors[r["workload"]],
                   linewidths=1.8 if is_sol else 1.2, zorder=3 if is_sol else 2)
    handles = [Line2D([], [], color=colors[w], marker="o", ls="", label=w) for w in workloads]
    handles += [Line2D([], [], color="gray", marker=m, ls="", label=i,
                       markeredgecolor="red" if i == "sol" else "gray",
                       markersize=12 if i == "sol" else 7) for i, m in markers.items()]
    handles += [Line2D([], [], color="gray", marker="o", ls="", label="fp16 (filled)"),
                Line2D([], [], color="gray", marker="o", ls="", markerfacecolor="none",
                       label="bf16 (hollow)")]
    ax.legend(handles=handles, fontsize=8, loc="lower right")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(min([p[2] for p in pts] + [lo * peak_bw / 1e12]) / 2, peak_flops / 1e12 * 2)
    ax.set_xlabel("arithmetic intensity (FLOP/byte, minimum bytes)")
    ax.set_ylabel("attained TFLOP/s")
    ax.set_title(title or "roofline")
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return len(pts)


def card_slug(name):
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    slug = re.sub(r"^nvidia-", "", slug)
    return slug or "unknown"


def nvidia_smi():
    q = "name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.draw,power.limit,temperature.gpu"
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=" + q, "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20)
        if out.returncode == 0:
            return dict(zip(q.split(","), [v.strip() for v in out.stdout.splitlines()[0].split(",")]))
    except Exception:  # no nvidia-smi: fine, the clocks are optional
        pass
    return None


# ---------------------------------------------------------------------------
# torch: inputs, reference, check, implementations, timing
# ---------------------------------------------------------------------------

torch = None
F = None


def import_torch():
    global torch, F
    if torch is None:
        import torch as _torch
        import torch.nn.functional as _F
        torch, F = _torch, _F
    return torch


def tdtype(dtype):
    return getattr(torch, DTYPES[dtype]["torch"])


def stable_seed(*parts):
    h = 1469598103934665603
    for p in parts:
        for ch in str(p):
            h = ((h ^ ord(ch)) * 1099511628211) % (1 << 61)
    return h


def make_inputs(spec, dtype, device, seed, set_index):
    """Uniform(-1, 1) as sol-run draws them, rounded to dtype; zeros redrawn."""
    gen = torch.Generator(device=device)
    gen.manual_seed(stable_seed(seed, spec["name"], dtype, set_index))
    inputs = {}
    for name, shape in spec["inputs"]:
        t = torch.rand(shape, generator=gen, device=device, dtype=torch.float32).mul_(2).sub_(1)
        t = t.to(tdtype(dtype))
        t.masked_fill_(t == 0, 0.25)  # a zero hides a missing term
        inputs[name] = t
    return inputs


def reference(spec, inputs):
    d = {k: v.double() for k, v in inputs.items()}
    if spec["kind"] == "oproj":
        return d["x"] @ d["w"].t() + d["r"]
    if spec["kind"] == "mlp":
        return F.gelu(d["x"] @ d["w"].t() + d["b"], approximate="tanh")
    return F.silu(d["g"]) * d["u"] + d["r"]


def check(out, ref, atol=ATOL, rtol=RTOL, min_share=MIN_SHARE):
    """SOL-ExecBench's rule, plus max relative error (|ref| floored at atol)."""
    if tuple(out.shape) != tuple(ref.shape):
        return {"pass": False, "error": "shape %s, expected %s" % (list(out.shape), list(ref.shape)),
                "share": 0.0, "max_rel_err": None, "max_abs_err": None, "nonfinite": None}
    o = out.double()
    finite = torch.isfinite(o)
    nonfinite = int(o.numel() - int(finite.sum()))
    err = (o - ref).abs()
    ok = err <= atol + rtol * ref.abs()  # NaN compares False
    share = float(ok.double().mean())
    err = torch.where(finite, err, torch.full_like(err, float("inf")))
    rel = err / ref.abs().clamp_min(atol)
    cos = float(torch.nn.functional.cosine_similarity(
        torch.nan_to_num(o.flatten(), 0.0), ref.flatten(), dim=0))
    result = {"pass": nonfinite == 0 and share >= min_share, "share": share,
              "max_rel_err": float(rel.max()), "max_abs_err": float(err.max()),
              "nonfinite": nonfinite, "cosine": cos}
    if not result["pass"]:
        result["error"] = "correctness: %.4f%% within tolerance, %d NaN/Inf" % (100 * share, nonfinite)
    return result


def matmul_flags():
    """torch's defaults as a user gets them (left as found; recorded)."""
    m = torch.backends.cuda.matmul
    return {k: getattr(m, k, None) for k in (
        "allow_tf32", "allow_fp16_reduced_precision_reduction",
        "allow_bf16_reduced_precision_reduction")}


def eager_fn(kind):
    if kind == "oproj":
        return lambda x, w, r: F.linear(x, w) + r
    if kind == "mlp":
        return lambda x, w, b: F.gelu(F.linear(x, w, b), approximate="tanh")
    return lambda g, u, r: F.silu(g) * u + r


def cublas_fn(kind):
    if kind != "oproj":
        return None

    def addmm(x, w, r):
        k, n = x.shape[-1], w.shape[0]
        return torch.addmm(r.reshape(-1, n), x.reshape(-1, k), w.t()).view(r.shape)
    return addmm


def applicable(impl, kind):
    # PEERS.md: cuBLAS addmm takes the residual as C; the MLP's bias + GELU
    # is not one cuBLAS call, and SwiGLU has no matmul.
    return impl != "cublas_addmm" or kind == "oproj"


def configure_compile():
    """Bounds torch.compile: no dynamic-shape recompiles across workloads, no
    cache-limit fallbacks to eager, and max-autotune over ATen + Triton GEMMs
    with the default (not exhaustive) search space."""
    import torch._dynamo
    import torch._inductor.config as ic
    for key in ("cache_size_limit", "recompile_limit"):
        if hasattr(torch._dynamo.config, key):
            setattr(torch._dynamo.config, key, 64)
    settings = {"max_autotune_gemm_backends": "ATEN,TRITON",
                "max_autotune_gemm_search_space": "DEFAULT",
                "coordinate_descent_tuning": False}
    applied = {}
    for key, value in settings.items():
        if hasattr(ic, key):
            setattr(ic, key, value)
            applied[key] = value
    return applied


def compiled_fn(kind, mode):
    import torch._dynamo
    torch._dynamo.reset()  # a fresh compile per workload, dtype and mode
    fn = eager_fn(kind)
    if mode is None:
        return torch.compile(fn, dynamic=False)
    return torch.compile(fn, mode=mode, dynamic=False)


class CudaError(RuntimeError):
    """Loading or launching a sol kernel failed; after a launch this may
    poison the context."""


class SolKernel:
    """One sol kernel through sol.Kernel (the C API's launch library): its
    module loaded on the current CUDA device (torch's primary context), the
    cubin first and the PTX (JIT) when the cubin does not load, launched
    with bare pointers to dense row-major buffers in the manifest's args
    order on torch's current stream; the library encodes the tensor maps and
    makes cluster launches. `with_torch=False` lets the tests drive it with
    host buffers through a fake driver (SOL_CAPI_LIBCUDA)."""

    def __init__(self, manifest, with_torch=True):
        sol = import_sol()
        self.m, self.with_torch = manifest, with_torch
        self.device = 0
        if with_torch:
            torch.cuda.init()
            torch.empty(1, device="cuda")  # makes the primary context current
            self.device = torch.cuda.current_device()
        self.kernel, self.binary, self.note = None, None, None
        errors = []
        for key in ("cubin", "ptx"):
            path = manifest.get(key)
            if not path or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                image = f.read()
            kernel = sol.Kernel(manifest["kernel"], image.decode(errors="replace") if key == "ptx" else "",
                                image if key == "cubin" else b"", manifest["text"])
            try:
                kernel.load(self.device)
            except sol.SolError as e:
                errors.append("%s: %s" % (os.path.basename(path), e))
                continue
            self.kernel, self.binary = kernel, path
            if errors:
                self.note = "cubin did not load (%s); JIT from PTX" % errors[0]
            break
        if self.kernel is None:
            raise CudaError("cannot load module: " + "; ".join(errors or ["no cubin/ptx file"]))
        try:
            self.attributes = self.kernel.attributes(self.device)
        except sol.SolError:  # a driver without cuFuncGetAttribute
            self.attributes = {}

    def params_from_pointers(self, pointers):
        """The launch's argument array (one device address per manifest
        arg), built once per set of buffers."""
        if len(pointers) != len(self.m["args"]):
            raise ValueError("%d pointers for %d args" % (len(pointers), len(self.m["args"])))
        return (ctypes.c_void_p * len(pointers))(*pointers)

    def params(self, tensors):
        if len(tensors) != len(self.m["args"]):
            raise ValueError("%d tensors for %d args" % (len(tensors), len(self.m["args"])))
        dtypes = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
        for t, a in zip(tensors, self.m["args"]):
            if (not t.is_cuda or not t.is_contiguous() or tuple(t.shape) != a["shape"] or
                    t.dtype != dtypes[a["dtype"]]):
                raise ValueError("tensor for %s: %s %s %s contiguous=%s, manifest wants %s %s" % (
                    a["name"], t.device, t.dtype, list(t.shape), t.is_contiguous(),
                    a["dtype"], list(a["shape"])))
        return self.params_from_pointers([t.data_ptr() for t in tensors])

    def launch(self, params, stream=None):
        if stream is None:
            stream = torch.cuda.current_stream().cuda_stream if self.with_torch else 0
        try:
            self.kernel.launch_pointers(params, stream, self.device)
        except import_sol().SolError as e:
            raise CudaError(str(e))

    def close(self):
        if self.kernel is not None:
            self.kernel.unload()
            self.kernel = None


def prepare_sol(spec, dtype, sets, kernels_dir, info):
    paths = bundle_manifests(kernels_dir, spec["name"], dtype)
    if len(paths) != 1:
        raise ManifestError("%d kernels for %s_%s; the bench launches single-kernel workloads only"
                            % (len(paths), spec["name"], dtype))
    manifest = load_manifest(paths[0])
    order = bind_args(manifest, spec, dtype)
    kernel = SolKernel(manifest)
    info["kernel_obj"] = kernel
    info["manifest"] = manifest
    info["binding"] = order
    outs = [torch.empty(spec["output"], dtype=tdtype(dtype), device="cuda") for _ in sets]
    info["outputs"] = outs
    params = [kernel.params([s[n] for n in order] + [o]) for s, o in zip(sets, outs)]
    info["params"] = params

    def call(i):
        kernel.launch(params[i])
        return outs[i]
    return call


def prepare_impl(impl, spec, dtype, sets, kernels_dir, info):
    """A callable(set_index) -> output for one implementation."""
    kind = spec["kind"]
    names = [n for n, _ in spec["inputs"]]
    if impl == "sol":
        return prepare_sol(spec, dtype, sets, kernels_dir, info)
    if impl == "eager":
        fn = eager_fn(kind)
    elif impl == "cublas_addmm":
        fn = cublas_fn(kind)
    elif impl == "inductor":
        fn = compiled_fn(kind, None)
    elif impl == "inductor_max_autotune":
        fn = compiled_fn(kind, "max-autotune-no-cudagraphs")
    else:
        raise ValueError("unknown implementation %r" % impl)
    args = [[s[n] for n in names] for s in sets]
    return lambda i: fn(*args[i])


def sync(device):
    if device == "cuda":
        torch.cuda.synchronize()


def median_us(samples):
    return statistics.median(samples)


class ClockSampler:
    """The SM clock (and power) while a block runs: nvidia-smi sampled every
    50 ms by a background reader, each sample stamped with time.monotonic()
    on arrival. Under large matmuls the H200 sits at its 700 W cap, ~1.4-1.6
    GHz against the 1.83 GHz its datasheet peak assumes (bench/NOTES.md
    sections 15, 20 and 22), so each timing says what clock it ran at.
    After the block, `mhz` is the median sample; `between(t0, t1)` gives the
    medians (MHz, W) of the samples inside a window of the block, for
    callers that time several things under one sampler
    (bench/torch_backend_gpu.py). None without nvidia-smi or without a
    sample (a window shorter than the sampling period)."""

    COMMAND = ("nvidia-smi", "--query-gpu=clocks.sm,power.draw",
               "--format=csv,noheader,nounits", "-lms", "50")

    def __init__(self, command=COMMAND):
        self.command = list(command)
        self.process = None
        self.reader = None
        self.samples = []  # (monotonic seconds, MHz, W or None)
        self.mhz = None

    def __enter__(self):
        if shutil.which(self.command[0]):
            try:
                self.process = subprocess.Popen(
                    self.command, stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL, text=True)
            except OSError:
                self.process = None
        if self.process is not None:
            self.reader = threading.Thread(target=self._read, daemon=True)
            self.reader.start()
        return self

    def _read(self):
        for line in self.process.stdout:
            fields = [f.strip() for f in line.split(",")]
            try:
                mhz = float(fields[0])
            except ValueError:
                continue
            try:
                watts = float(fields[1]) if len(fields) > 1 else None
            except ValueError:  # "[N/A]" where the card reports no power
                watts = None
            self.samples.append((time.monotonic(), mhz, watts))

    def between(self, t0, t1):
        """(median MHz, median W) of the samples taken in [t0, t1]."""
        inside = [(m, w) for t, m, w in self.samples if t0 <= t <= t1]
        watts = [w for _, w in inside if w is not None]
        return (statistics.median(m for m, _ in inside) if inside else None,
                statistics.median(watts) if watts else None)

    def __exit__(self, *exc):
        if self.process is None:
            return False
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=5)
        mhz = [m for _, m, _ in self.samples]
        self.mhz = statistics.median(mhz) if mhz else None
        return False


def heat(step, seconds=HEAT_S):
    """Runs `step` (then synchronises) until `seconds` have passed."""
    end = time.time() + seconds
    while time.time() < end:
        step()
        torch.cuda.synchronize()


def time_graph(call, n_sets, calls=CALLS_PER_GRAPH, replays=REPLAYS, warm=3):
    """PEERS.md: a CUDA graph of `calls` back-to-back calls rotating among the
    input sets; median over `replays` replays of replay time / calls, after
    HEAT_S of replays bring the card to its steady state."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for i in range(max(n_sets, 3)):
            call(i % n_sets)
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            for i in range(calls):
                call(i % n_sets)
        for _ in range(warm):
            graph.replay()
        torch.cuda.synchronize()
        heat(graph.replay)
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        samples = []
        for _ in range(replays):
            start.record()
            graph.replay()
            stop.record()
            stop.synchronize()
            samples.append(start.elapsed_time(stop) * 1e3 / calls)
        return median_us(samples), samples
    finally:
        del graph


def time_events(call, n_sets, calls=CALLS_PER_GRAPH, replays=REPLAYS, warm=3):
    """The fallback: events around `calls` back-to-back launches (host launch
    cost can show for small kernels)."""
    for i in range(max(n_sets, warm)):
        call(i % n_sets)
    torch.cuda.synchronize()
    heat(lambda: [call(i % n_sets) for i in range(calls)])
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    samples = []
    for rep in range(replays):
        start.record()
        for i in range(calls):
            call((rep * calls + i) % n_sets)
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) * 1e3 / calls)
    return median_us(samples), samples


def short_error(e):
    text = "%s: %s" % (type(e).__name__, e)
    text = text.strip()
    return text if len(text) < 600 else text[:600] + " ..."


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------

class Bench:
    def __init__(self, opts):
        self.o = opts
        self.t0 = time.time()
        self.rows = []
        self.doc = None
        self.json_paths = []

    def elapsed(self):
        return time.time() - self.t0

    def log(self, msg):
        print("[%6.1fs] %s" % (self.elapsed(), msg), flush=True)

    # -- output ------------------------------------------------------------
    def start_doc(self, kernels_dir):
        o = self.o
        card = torch.cuda.get_device_name() if o.device == "cuda" else "cpu"
        bundle = None
        if kernels_dir and os.path.isfile(os.path.join(kernels_dir, "bundle.json")):
            with open(os.path.join(kernels_dir, "bundle.json")) as f:
                bundle = json.load(f)
            bundle.pop("workloads", None)
        versions = {"python": sys.version.split()[0]}
        try:
            import triton
            versions["triton"] = triton.__version__
        except Exception:
            versions["triton"] = None
        date = o.date or datetime.date.today().isoformat()
        self.doc = {
            "date": date, "card": card, "torch": torch.__version__,
            "cuda": getattr(torch.version, "cuda", None), "versions": versions,
            "clocks": nvidia_smi() if o.device == "cuda" else None,
            "clocks_after": None, "device": o.device, "tiny": o.tiny,
            "sol_bundle": bundle, "seed": o.seed,
            "method": {"peak_flops": PEAK_FLOPS, "peak_bw": PEAK_BW, "l2_bytes": L2_BYTES,
                       "calls_per_graph": CALLS_PER_GRAPH, "replays": o.replays,
                       "atol": ATOL, "rtol": RTOL, "min_share": MIN_SHARE,
                       "inductor_config": self.inductor_config,
                       "matmul_flags": matmul_flags(),
                       "t_ideal": "max((tc_flops + ew_flops) / peak_flops, bytes / peak_bw); "
                                  "bytes = inputs once + output once",
                       "timing": "CUDA graph of calls_per_graph back-to-back calls rotating input sets "
                                 "(together > 2 x L2), median of replays, per call = replay / calls"},
            "workloads": {}, "rows": self.rows, "elapsed_s": None,
        }
        stem = "%s-%s%s" % (date, card_slug(card), "-tiny" if o.tiny else "")
        dirs = [o.out]
        if os.environ.get("OUT") and os.path.abspath(os.environ["OUT"]) != os.path.abspath(o.out):
            dirs.append(os.environ["OUT"])
        self.json_paths = [os.path.join(d, stem + ".json") for d in dirs]
        for d in dirs:
            os.makedirs(d, exist_ok=True)

    def save(self):
        self.doc["elapsed_s"] = round(self.elapsed(), 1)
        text = json.dumps(self.doc, indent=1, default=str)
        for p in self.json_paths:
            tmp = p + ".tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, p)

    # -- one workload x dtype ---------------------------------------------
    def run_pair(self, name, dtype, kernels_dir, probe, impls):
        o = self.o
        spec = workload_spec(name, o.tiny)
        nums = workload_numbers(spec, dtype)
        n_sets = 1 if o.device != "cuda" else num_sets(input_bytes(spec, dtype))
        meta = dict(nums, title=spec["title"], inputs=[[n, list(s)] for n, s in spec["inputs"]],
                    output=list(spec["output"]), sets=n_sets)
        self.doc["workloads"]["%s/%s" % (name, dtype)] = meta
        self.log("== %s %s: %.3g GFLOP, %.1f MB, T_ideal %.2f us (%s), %d input set(s)" % (
            name, dtype, nums["flops"] / 1e9, nums["bytes"] / 1e6, nums["t_ideal_us"],
            nums["bound"], n_sets))
        impls = [i for i in impls if applicable(i, spec["kind"])]
        todo = []
        for impl in impls:
            reason = self.pre_skip(impl, name, dtype, kernels_dir, probe)
            if reason:
                row = new_row(name, dtype, impl)
                row["error"] = reason
                if impl == "sol":
                    row.update({"predicted_us": None, "sol_pred": None,
                                "t_pred_over_t_measured": None})
                self.add(row)
            else:
                todo.append(impl)
        impls = todo
        if not impls:
            return
        try:
            sets = [make_inputs(spec, dtype, o.device, o.seed, i) for i in range(n_sets)]
            ref = reference(spec, sets[0])
            sync(o.device)
        except Exception as e:
            for impl in impls:
                row = new_row(name, dtype, impl)
                row["error"] = "inputs/reference: " + short_error(e)
                self.add(row)
            return
        for impl in impls:
            row = new_row(name, dtype, impl)
            row["sets"] = n_sets
            try:
                self.run_impl(impl, spec, dtype, sets, ref, kernels_dir, probe, row)
            except Exception as e:
                # `pass` stays the correctness verdict (False unless the check
                # ran and passed); a row without `us` was not timed.
                row["error"] = ("timing failed: " if row["pass"] else "") + short_error(e)
                row["traceback"] = traceback.format_exc()[-2000:]
                row["us"] = None
            self.add(row)
        del sets, ref
        if o.device == "cuda":
            torch.cuda.empty_cache()

    def add(self, row):
        self.rows.append(row)
        if row.get("us") is not None:
            msg = "%.2f us, SOL %.3f, %.1f TFLOP/s, %.0f GB/s, max_rel %.2e%s" % (
                row["us"], row["sol"], row["tflops"], row["gbps"], row["max_rel_err"],
                "" if row.get("timing") == "graph" else " [%s]" % row.get("timing"))
            if row["impl"] == "sol" and row.get("predicted_us"):
                msg += ", T_pred %.2f us (T_pred/T_meas %.3f)" % (
                    row["predicted_us"], row["t_pred_over_t_measured"])
            if row.get("sm_clock_mhz"):
                msg += ", SM %d MHz" % row["sm_clock_mhz"]
        elif row.get("pass") and self.o.device != "cuda":
            msg = "PASS (max_rel %.2e; not timed on %s)" % (row["max_rel_err"], self.o.device)
        else:
            msg = row.get("error") or "?"
        self.log("  %-22s %s" % (row["impl"], msg))
        if self.doc is not None:
            self.save()

    def pre_skip(self, impl, name, dtype, kernels_dir, probe):
        """Why `impl` does not run on this pair, or None."""
        o = self.o
        if impl == "inductor_max_autotune" and dtype not in o.max_autotune_dtypes:
            return "skipped: max-autotune only for %s (--max-autotune-dtypes)" % ",".join(
                o.max_autotune_dtypes)
        if impl == "sol":
            if o.device != "cuda":
                return "skipped: sol kernels need a CUDA device"
            if kernels_dir is None:
                return "no bundle (--bundle)"
            verdict = probe.get((name, dtype)) if probe is not None else None
            if verdict is not None and verdict.get("cuda_error"):
                return "not run here: the isolated probe hit a CUDA error: " + verdict["cuda_error"]
        return self.skip_reason(impl)

    def skip_reason(self, impl):
        o = self.o
        left = o.budget_s - self.elapsed()
        if impl == "inductor_max_autotune" and left < o.max_autotune_reserve_s:
            return "skipped: time budget (%.0f s left, max-autotune needs ~%.0f)" % (
                left, o.max_autotune_reserve_s)
        if impl == "inductor" and left < 30:
            return "skipped: time budget (%.0f s left)" % left
        return None

    def run_impl(self, impl, spec, dtype, sets, ref, kernels_dir, probe, row):
        o = self.o
        reason = self.skip_reason(impl)  # the budget may have run out meanwhile
        if reason:
            row["error"] = reason
            return
        info = {}
        if impl == "sol":
            row.update({"predicted_us": None, "sol_pred": None, "t_pred_over_t_measured": None})
        t = time.time()
        try:
            call = prepare_impl(impl, spec, dtype, sets, kernels_dir, info)
            if impl == "sol":
                m = info["manifest"]
                cost = m["cost"]
                row.update({"kernel": m["kernel"], "plan": m["plan"],
                            "launch": {"grid": list(m["grid"]), "block": list(m["block"]),
                                       "smem": m["smem"]},
                            "binding": info["binding"], "cost": cost,
                            "binary": os.path.basename(info["kernel_obj"].binary),
                            "func_attributes": info["kernel_obj"].attributes,
                            "predicted_us": cost.get("t_pred_us"), "sol_pred": cost.get("sol_pred")})
                if info["kernel_obj"].note:
                    row["note"] = info["kernel_obj"].note
                for out in info["outputs"]:
                    out.fill_(float("nan"))  # poison: every element must be written
                sync(o.device)
            with torch.no_grad():
                out = call(0)
                sync(o.device)
            row["first_call_s"] = round(time.time() - t, 2)
            row.update(check(out, ref))
            del out
            if not row["pass"]:
                return
            if o.device != "cuda":
                return
            with torch.no_grad(), ClockSampler() as clock:
                # The check's launch and the timing's share one module; a
                # second check after the timed replays catches a kernel that
                # is only right the first time.
                try:
                    us, samples = time_graph(call, row["sets"], replays=o.replays)
                    row["timing"] = "graph"
                except Exception as e:
                    torch.cuda.synchronize()
                    row["graph_error"] = short_error(e)
                    us, samples = time_events(call, row["sets"], replays=o.replays)
                    row["timing"] = "events"
            row["sm_clock_mhz"] = clock.mhz
            row["samples_us"] = [round(s, 3) for s in samples]
            row["spread"] = (max(samples) - min(samples)) / us if us > 0 else None
            derive_rates(row, spec, dtype, us, info["manifest"]["cost"] if impl == "sol" else None)
            if impl == "sol":
                for out in info["outputs"]:
                    out.fill_(float("nan"))
                with torch.no_grad():
                    again = check(call(0), ref)
                torch.cuda.synchronize()
                row["recheck_pass"] = again["pass"]
                if not again["pass"]:
                    row["pass"] = False
                    row["error"] = "second check after timing failed: " + again.get("error", "")
                    row["recheck"] = again
                    for key in ("us", "tflops", "tflops_all", "gbps", "sol", "t_pred_over_t_measured"):
                        row[key] = None
        finally:
            kernel = info.get("kernel_obj")
            info.clear()
            if kernel is not None:
                if o.device == "cuda":
                    torch.cuda.synchronize()
                kernel.close()

    # -- everything --------------------------------------------------------
    def run(self):
        o = self.o
        kernels_dir = find_kernels_dir(o.bundle) if "sol" in o.impls and o.bundle else None
        if kernels_dir:
            try:
                import_sol()  # here, so that the probe's children find its library
            except Exception as e:  # the sol rows then say why
                self.log("sol's package: %s" % short_error(e))
        self.inductor_config = None
        if any(i.startswith("inductor") for i in o.impls):
            try:
                self.inductor_config = configure_compile()
            except Exception as e:
                self.inductor_config = {"error": short_error(e)}
        self.start_doc(kernels_dir)
        self.log("card %s, torch %s, out %s" % (self.doc["card"], torch.__version__,
                                               ", ".join(self.json_paths)))
        pairs = [(w, d) for w in o.workloads for d in o.dtypes]
        probe = None
        if kernels_dir and o.device == "cuda" and o.probe:
            probe = run_probe(o, kernels_dir, pairs, self.log)
            self.doc["sol_probe"] = {"%s/%s" % k: v for k, v in probe.items()}
        self.save()
        # max-autotune last: its compiles are the slowest part, and the budget
        # then drops them rather than anything else.
        first = [i for i in o.impls if i != "inductor_max_autotune"]
        for w, d in pairs:
            if first:
                self.run_pair(w, d, kernels_dir, probe, first)
        if "inductor_max_autotune" in o.impls:
            for w, d in pairs:
                self.run_pair(w, d, kernels_dir, probe, ["inductor_max_autotune"])
        if o.device == "cuda":
            self.doc["clocks_after"] = nvidia_smi()
        problems = validate_results(self.doc)
        if problems:
            self.doc["schema_problems"] = problems
        self.save()
        png = None
        if o.device == "cuda" or o.plot:
            try:
                png = os.path.splitext(self.json_paths[0])[0] + ".png"
                n = write_roofline(self.rows, png, self.doc["workloads"],
                                   "%s, %s, torch %s" % (self.doc["card"], self.doc["date"],
                                                         torch.__version__))
                for p in self.json_paths[1:]:
                    shutil.copy(png, os.path.splitext(p)[0] + ".png")
                self.log("roofline: %d points -> %s" % (n, png))
            except Exception as e:
                self.log("roofline failed: %s" % short_error(e))
        for p in problems:
            self.log("schema: " + p)
        failed = [r for r in self.rows if not r["pass"] and not (r.get("error") or "").startswith("skipped")]
        print()
        print("results: %s" % ", ".join(self.json_paths))
        print("%d rows, %d passed, %d failed or errored, %d skipped; %.0f s" % (
            len(self.rows), sum(r["pass"] for r in self.rows), len(failed),
            sum((r.get("error") or "").startswith("skipped") for r in self.rows), self.elapsed()))
        for r in failed:
            print("  %s %s %s: %s" % (r["workload"], r["dtype"], r["impl"], r.get("error")))
        print()
        print(format_table(self.rows, o.impls))
        return 0


def run_probe(o, kernels_dir, pairs, log):
    """Checks every sol kernel once in child processes first, so that a kernel
    that faults (a sticky CUDA error kills the whole context) costs only its own
    rows. A child stops at its first CUDA error; the next starts after it."""
    results, remaining = {}, list(pairs)
    while remaining:
        cmd = [sys.executable, os.path.abspath(__file__), "--probe-child", "--no-probe",
               "--bundle", kernels_dir, "--seed", str(o.seed), "--impls", "sol",
               "--pairs", ",".join("%s:%s" % p for p in remaining)]
        if o.tiny:
            cmd.append("--tiny")
        t = time.time()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=o.probe_timeout_s)
            stdout, stderr, rc = proc.stdout, proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as e:
            stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            stderr, rc = "timed out after %d s" % o.probe_timeout_s, -1
        got = {}
        for line in stdout.splitlines():
            if line.startswith("SOLPROBE "):
                item = json.loads(line[len("SOLPROBE "):])
                got[(item["workload"], item["dtype"])] = item
        log("sol probe: %d/%d kernels checked in %.1f s (rc %d)" % (len(got), len(remaining),
                                                                     time.time() - t, rc))
        bad = None
        for i, pair in enumerate(remaining):
            if pair not in got:
                results[pair] = {"cuda_error": "probe process ended (rc %d) before this kernel: %s" % (
                    rc, stderr.strip()[-400:])}
                bad = i
                break
            results[pair] = got[pair]
            if got[pair].get("cuda_error"):
                log("sol probe: %s %s: %s" % (pair[0], pair[1], got[pair]["cuda_error"]))
                bad = i
                break
        if bad is None:
            break
        remaining = remaining[bad + 1:]
    return results


def probe_child(o, pairs):
    """--probe-child: sol's check only, one SOLPROBE line per kernel; exits at
    the first CUDA error (the context is not to be trusted after it)."""
    kernels_dir = find_kernels_dir(o.bundle)
    for name, dtype in pairs:
        item = {"workload": name, "dtype": dtype}
        info = {}
        try:
            spec = workload_spec(name, o.tiny)
            inputs = make_inputs(spec, dtype, "cuda", o.seed, 0)
            ref = reference(spec, inputs)
            call = prepare_sol(spec, dtype, [inputs], kernels_dir, info)
            info["outputs"][0].fill_(float("nan"))
            out = call(0)
            torch.cuda.synchronize()
            item.update(check(out, ref))
        except CudaError as e:
            item["cuda_error"] = short_error(e)
        except RuntimeError as e:  # torch raises RuntimeError for a faulted context
            text = short_error(e)
            if "CUDA" in text or "cuda" in text:
                item["cuda_error"] = text
            else:
                item["error"] = text
        except Exception as e:
            item["error"] = short_error(e)
        print("SOLPROBE " + json.dumps(item, default=str), flush=True)
        if item.get("cuda_error"):
            return 3
        if info.get("kernel_obj") is not None:
            info["kernel_obj"].close()
    return 0


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bundle", help="scripts/bench-bundle.sh's folder (or its bench-kernels.tgz, "
                                    "or an unpacked kernels/ folder)")
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    p.add_argument("--dtypes", default=",".join(DTYPES))
    p.add_argument("--impls", default=",".join(IMPLS))
    p.add_argument("--max-autotune-dtypes", default="fp16",
                   help="dtypes that get inductor_max_autotune (PEERS.md measured fp16 only); 'all'")
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    p.add_argument("--quick", action="store_true", help="%d replays instead of %d (smoke run)"
                   % (QUICK_REPLAYS, REPLAYS))
    p.add_argument("--seed", type=int, default=20261129)
    p.add_argument("--date", help="date in the file name (default: today)")
    p.add_argument("--device", default="cuda", choices=["cuda", "cpu"],
                   help="cpu: check the peers only, no timing, no sol (a debug mode)")
    p.add_argument("--tiny", action="store_true", help="tiny shapes (debug)")
    p.add_argument("--plot", action="store_true", help="draw the roofline even without timings")
    p.add_argument("--budget-s", type=float, default=450,
                   help="wall-clock budget: compiled peers are skipped when it runs short")
    p.add_argument("--max-autotune-reserve-s", type=float, default=100,
                   help="time a max-autotune compile is assumed to need")
    p.add_argument("--no-probe", dest="probe", action="store_false",
                   help="do not check sol's kernels in a child process first")
    p.add_argument("--probe-timeout-s", type=int, default=240)
    p.add_argument("--probe-child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--pairs", help=argparse.SUPPRESS)
    o = p.parse_args(argv)
    o.workloads = [w for w in o.workloads.split(",") if w]
    o.dtypes = [d for d in o.dtypes.split(",") if d]
    o.impls = [i for i in o.impls.split(",") if i]
    o.max_autotune_dtypes = list(DTYPES) if o.max_autotune_dtypes == "all" else \
        [d for d in o.max_autotune_dtypes.split(",") if d]
    for w in o.workloads:
        if w not in WORKLOADS:
            p.error("unknown workload %r (have %s)" % (w, ", ".join(WORKLOADS)))
    for d in o.dtypes + o.max_autotune_dtypes:
        if d not in DTYPES:
            p.error("unknown dtype %r (have %s)" % (d, ", ".join(DTYPES)))
    for i in o.impls:
        if i not in IMPLS:
            p.error("unknown impl %r (have %s)" % (i, ", ".join(IMPLS)))
    o.replays = QUICK_REPLAYS if o.quick else REPLAYS
    return o


def main(argv=None):
    o = parse_args(sys.argv[1:] if argv is None else argv)
    import_torch()
    if o.probe_child:
        pairs = [tuple(p.split(":")) for p in o.pairs.split(",") if p]
        return probe_child(o, pairs)
    if o.device == "cuda" and not torch.cuda.is_available():
        print("run_bench: no CUDA device (use --device cpu --tiny for a CPU smoke run)", file=sys.stderr)
        return 2
    return Bench(o).run()


if __name__ == "__main__":
    sys.exit(main())
