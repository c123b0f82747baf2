#!/usr/bin/env python3
"""Issue 20's fp8 benchmark: sol's fp8 kernels against its own bf16 ones,
cuBLASLt's fp8 GEMM (`torch._scaled_mm`) with the epilogue as eager ops, and
the default torch.compile of that same fp8 module, in one process on the GPU.

    python3 bench/fp8.py --out bench/results/<date>-<card>-fp8.json
        [--workloads oproj,mlp] [--ms 8192,16,1]

Workloads (docs/fp8.md): the seed o_proj + residual (N = K = 2560) and the
MLP up projection + bias + GELU(tanh) (N = 10240, K = 2560), e4m3 operands
with per-token (`[M, 1]`) and per-channel (`[N]`) f32 scales, bf16 results.
The inputs are quantised from N(0, 1) activations and N(0, 1/K) weights
(absmax / 448 scales), so every implementation reads the same fp8 codes;
the bf16 rows read those codes dequantised.

Correctness: every implementation's output is checked against the float64
product of the dequantised codes plus the epilogue (bench/timing.py's
rel_err and REL_TOL) before it is timed; a row that fails is written with
`us` null. Timing: bench/timing.py's time_call, the calls rotating through
copies of the inputs that together exceed 3x the L2 (each call streams its
weight from HBM, as a layer in a model does); with --graphs,
time_graph_call's CUDA-graph replays of the same rotation (the kernels'
time: a decode call's few microseconds are otherwise the host's). Each row
also has `t_hbm_us`, its least bytes at the HBM peak of sol's target
preset for the card (timing.target_hbm_bytes_per_s), and
`hbm_sol` = t_hbm_us / us (issue 20: 1-token decode at >= 0.85).

Output: a list of rows {"workload", "m", "n", "k", "impl", "us", "ok",
"rel_err", "plan", "t_pred_us", "t_hbm_us", "hbm_sol", "timing" (with
--graphs), "card", "date", "torch"}, impl in sol_fp8,
sol_bf16, scaled_mm (`torch._scaled_mm` then the epilogue), inductor_fp8
(torch.compile of that), bf16 (eager bf16: F.linear's cuBLAS and the
epilogue); at M <= 64 (the torch backend's WEIGHT_ONLY_ROWS) weight-only fp8 (the bf16 activations against the
weight codes and their per-channel scale): sol_wo (the planner's path),
sol_wo_gemv and sol_wo_swap_ab (each path pinned), and inductor_wo
(torch.compile of the weight dequantised to bf16, then the linear:
torchao's float8 weight-only form); with --block, block-wise fp8 (A's
scales per token and 128-deep group of K, B's per 128 x 128 block, as
DeepSeek-V3 checkpoints ship): sol_fp8_block, scaled_mm_block and
inductor_fp8_block (torch._scaled_mm's BlockWise1x128 x BlockWise128x128
scaling then the epilogue, eager and compiled).
"""

import argparse
import datetime
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import rotating, rotation  # noqa: E402
from sol.reference import SCALE_BLOCK  # noqa: E402
from timing import (REL_TOL, rel_err, sol_module, sol_plan_at,  # noqa: E402
                    sol_runner, target_hbm_bytes_per_s, time_call,
                    time_graph_call)

# The largest fp8 code of e4m3fn: absmax / 448 maps a tensor onto the
# whole code range.
E4M3_MAX = 448.0
# workload -> (N, K, epilogue)
WORKLOADS = {"oproj": (2560, 2560, "residual"),
             "mlp": (10240, 2560, "bias_gelu")}


def sol_text(m, n, k, epilogue, fp8, weight_only=False, block=False):
    """The workload as a sol function: fp8 operands with their scales, bf16
    ones, (`weight_only`) a bf16 A against fp8 weight codes with their
    scale per channel, or (`block`) fp8 operands with block-wise scales
    (A per token and 128-deep group of K, B per 128 x 128 block)."""
    x = f"tensor<{m}x{k}x{'f8E4M3FN' if fp8 and not weight_only else 'bf16'}>"
    w = f"tensor<{n}x{k}x{'f8E4M3FN' if fp8 else 'bf16'}>"
    y, v = f"tensor<{m}x{n}xbf16>", f"tensor<{n}xbf16>"
    args = [f"%x: {x}", f"%w: {w}"]
    scales = ""
    if fp8 and weight_only:
        args.append(f"%sw: tensor<{n}xf32>")
        scales = f" scale_b(%sw : tensor<{n}xf32>)"
    elif fp8 and block:
        sx = f"tensor<{m}x{blocks(k)}xf32>"
        sw = f"tensor<{blocks(n)}x{blocks(k)}xf32>"
        args += [f"%sx: {sx}", f"%sw: {sw}"]
        scales = f" scale_a(%sx : {sx}) scale_b(%sw : {sw})"
    elif fp8:
        args += [f"%sx: tensor<{m}x1xf32>", f"%sw: tensor<{n}xf32>"]
        scales = (f" scale_a(%sx : tensor<{m}x1xf32>)"
                  f" scale_b(%sw : tensor<{n}xf32>)")
    body = [f"%h = sol.matmul %x, %w transpose_b{scales} : {x}, {w} -> {y}"]
    if epilogue == "residual":
        args.append(f"%r: {y}")
        body.append(f"%o = sol.add %h, %r : {y}, {y} -> {y}")
    else:
        args.append(f"%b: {v}")
        body += [f"%s = sol.add %h, %b : {y}, {v} -> {y}",
                 f"%o = sol.gelu tanh %s : {y}"]
    lines = "\n".join(f"  {line}" for line in body)
    return (f"func.func @fp8_bench({', '.join(args)}) -> {y} {{\n{lines}\n"
            f"  return %o : {y}\n}}")


def quantise(t, dim):
    """(codes, f32 scales) of t, absmax per row (dim=1) or column."""
    scale = (t.abs().amax(dim, keepdim=True) / E4M3_MAX).clamp_min(1e-12)
    return (t / scale).to(torch.float8_e4m3fn), scale.float()


def blocks(extent):
    return -(-extent // SCALE_BLOCK)


def quantise_blocks(t, rows_per_block):
    """(codes, f32 scales) of t [R, K], absmax per `rows_per_block` x 128
    block: one scale per token and group of K for rows_per_block=1 (scale
    [R, ceil(K/128)]), one per weight block for 128 ([ceil(R/128),
    ceil(K/128)])."""
    r, k = t.shape
    padded = t.new_zeros(blocks(r) * rows_per_block if rows_per_block > 1
                         else r, blocks(k) * SCALE_BLOCK)
    padded[:r, :k] = t
    scale = padded.abs().unflatten(0, (-1, rows_per_block)).unflatten(
        2, (-1, SCALE_BLOCK)).amax((1, 3))
    scale = (scale / E4M3_MAX).clamp_min(1e-12)
    spread = scale.repeat_interleave(rows_per_block, 0).repeat_interleave(
        SCALE_BLOCK, 1)[:r, :k]
    return (t / spread).to(torch.float8_e4m3fn), scale.float(), spread


def block_inputs(m, n, k, extra, seed, device="cuda"):
    """Block-quantised codes of the workload's activation and weight, their
    scales and the float64 dequantised operands for the reference."""
    g = torch.Generator(device=device).manual_seed(seed + 1)
    x = torch.randn(m, k, device=device, generator=g)
    w = torch.randn(n, k, device=device, generator=g) / math.sqrt(k)
    xq, sx, spread_x = quantise_blocks(x, 1)
    wq, sw, spread_w = quantise_blocks(w, SCALE_BLOCK)
    dequantised = (xq.double() * spread_x.double(),
                   wq.double() * spread_w.double())
    return (xq, wq, sx, sw, extra), dequantised


def inputs(m, n, k, epilogue, seed, device="cuda"):
    """The fp8 codes, their scales and the epilogue operand, and the bf16
    operands that are those codes dequantised."""
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(m, k, device=device, generator=g)
    w = torch.randn(n, k, device=device, generator=g) / math.sqrt(k)
    xq, sx = quantise(x, 1)           # [M, 1]: per token
    wq, sw = quantise(w, 1)           # [N, 1]: per channel
    sw = sw.reshape(n)
    extra = (torch.randn(m, n, device=device, generator=g) if epilogue ==
             "residual" else torch.randn(n, device=device, generator=g))
    extra = extra.bfloat16()
    xb = (xq.float() * sx).bfloat16()
    wb = (wq.float() * sw[:, None]).bfloat16()
    return (xq, wq, sx, sw, extra), (xb, wb, extra), (xb, wq, sw, extra)


def epilogue_of(epilogue, h, extra):
    if epilogue == "residual":
        return h + extra
    return torch.nn.functional.gelu(h + extra, approximate="tanh")


def reference(fp8_args, epilogue):
    xq, wq, sx, sw, extra = fp8_args
    h = (xq.double() * sx.double()) @ (wq.double() * sw.double()[:, None]).T
    return epilogue_of(epilogue, h, extra.double())


# Weight-only impls' sol-to-ptx options: the planner's pick, and each of
# the two paths that read fp8 codes against a 16-bit A pinned.
WEIGHT_ONLY_VARIANTS = {"sol_wo": None, "sol_wo_gemv": "paths=gemv",
                        "sol_wo_swap_ab": "paths=swap_ab"}


def implementations(m, n, k, epilogue, block=False):
    """impl -> (function of the argument set, its sol compilation or None,
    which argument set it takes: "fp8", "bf16", "weight_only" or, with
    `block`, "fp8_block")."""
    import sol
    from sol.inductor import WEIGHT_ONLY_ROWS

    def scaled_mm(xq, wq, sx, sw, extra):
        h = torch._scaled_mm(xq, wq.t(), scale_a=sx, scale_b=sw[None, :],
                             out_dtype=torch.bfloat16)
        return epilogue_of(epilogue, h, extra)

    def bf16(xb, wb, extra):
        return epilogue_of(epilogue, torch.nn.functional.linear(xb, wb), extra)

    def dequantise_then_linear(xb, wq, sw, extra):
        # torchao's float8 weight-only form (bench/hf_models.py's
        # Fp8WeightOnlyLinear): the weight dequantised, then the linear.
        wb = (wq.float() * sw[:, None]).to(torch.bfloat16)
        return epilogue_of(epilogue, torch.nn.functional.linear(xb, wb),
                           extra)

    impls = {}
    for name, fp8 in (("sol_fp8", "fp8"), ("sol_bf16", "bf16")):
        compilation = sol.compile(sol_module(
            sol_text(m, n, k, epilogue, fp8 == "fp8")))
        run = sol_runner(compilation)
        impls[name] = (lambda *a, run=run: run(list(a))[0], compilation, fp8)
    impls["scaled_mm"] = (scaled_mm, None, "fp8")
    impls["inductor_fp8"] = (torch.compile(scaled_mm), None, "fp8")
    impls["bf16"] = (bf16, None, "bf16")
    if m <= WEIGHT_ONLY_ROWS:   # as many rows as the torch backend's sets
        for name, options in WEIGHT_ONLY_VARIANTS.items():
            try:
                compilation = sol.compile(
                    sol_module(sol_text(m, n, k, epilogue, True, True)),
                    options=options)
            except sol.SolError as error:   # a path that refuses M
                print(f"{name} at {m}: {str(error).splitlines()[0]}")
                continue
            run = sol_runner(compilation)
            impls[name] = (lambda *a, run=run: run(list(a))[0], compilation,
                           "weight_only")
    impls["inductor_wo"] = (torch.compile(dequantise_then_linear), None,
                            "weight_only")
    if block:
        impls.update(block_implementations(m, n, k, epilogue))
    return impls


def block_implementations(m, n, k, epilogue):
    """The block-wise fp8 impls: sol's kernel, and torch._scaled_mm with
    BlockWise1x128 x BlockWise128x128 scaling (cuBLASLt's DeepSeek recipe)
    then the epilogue, eager and compiled. torch's CUDA _scaled_mm takes A's
    scales M-major (stride (1, M): ScaledBlas.cpp's
    is_blockwise_1x128_scaling) and B's as the transpose of a row-major
    [ceil(N/128), ceil(K/128)]."""
    import sol

    def scaled_mm(xq, wq, sx, sw, extra):
        h = torch._scaled_mm(xq, wq.t(), scale_a=sx.t().contiguous().t(),
                             scale_b=sw.t(), out_dtype=torch.bfloat16)
        return epilogue_of(epilogue, h, extra)

    compilation = sol.compile(sol_module(
        sol_text(m, n, k, epilogue, True, block=True)))
    run = sol_runner(compilation)
    return {"sol_fp8_block": (lambda *a: run(list(a))[0], compilation,
                              "fp8_block"),
            "scaled_mm_block": (scaled_mm, None, "fp8_block"),
            "inductor_fp8_block": (torch.compile(scaled_mm), None,
                                   "fp8_block")}


def hbm_ideal_us(m, n, k, kind, epilogue, hbm_bytes_per_s):
    """The row's least traffic at the HBM peak (the sol target preset's, so
    the card the row ran on): A and B once (1 byte per
    fp8 code, 2 per bf16 element), the bf16 extra operand (the residual's
    [M, N], the bias's [N]) and result, the scales (f32)."""
    a_bytes = 1 if kind in ("fp8", "fp8_block") else 2
    b_bytes = 2 if kind == "bf16" else 1
    extra = m * n if epilogue == "residual" else n
    scales = {"fp8": (m + n) * 4, "weight_only": n * 4, "bf16": 0,
              "fp8_block": (m * blocks(k) + blocks(n) * blocks(k)) * 4}[kind]
    return (m * k * a_bytes + n * k * b_bytes + (extra + m * n) * 2 + scales) \
        / hbm_bytes_per_s * 1e6


def measure(workload, m, meta, graphs=False, block=False):
    from sol.inductor import l2_bytes
    n, k, epilogue = WORKLOADS[workload]
    fp8_args, bf16_args, weight_only_args = inputs(m, n, k, epilogue,
                                                   seed=m * 7919 + n)
    arg_sets = {"fp8": fp8_args, "bf16": bf16_args,
                "weight_only": weight_only_args}
    refs = dict.fromkeys(arg_sets, reference(fp8_args, epilogue))
    if block:
        arg_sets["fp8_block"], (xd, wd) = block_inputs(
            m, n, k, fp8_args[-1], seed=m * 7919 + n)
        refs["fp8_block"] = epilogue_of(epilogue, xd @ wd.T,
                                        fp8_args[-1].double())
    rows = []
    impls = implementations(m, n, k, epilogue, block)
    hbm_bytes_per_s = target_hbm_bytes_per_s(impls["sol_bf16"][1])
    for impl, (fn, compilation, kind) in impls.items():
        args = arg_sets[kind]
        row = dict(meta, workload=workload, m=m, n=n, k=k, impl=impl,
                   us=None, plan=None, t_pred_us=None,
                   t_hbm_us=hbm_ideal_us(m, n, k, kind, epilogue,
                                         hbm_bytes_per_s))
        if compilation is not None:
            row["plan"], row["t_pred_us"], _ = sol_plan_at(compilation, m)
        try:
            with torch.no_grad():
                row["rel_err"] = rel_err(fn(*args), refs[kind])
            row["ok"] = row["rel_err"] <= REL_TOL
            if row["ok"]:
                sets = rotation(list(args), 3 * l2_bytes(0))
                call = rotating(fn, sets)
                with torch.no_grad():
                    if graphs:
                        ms, row["timing"] = time_graph_call(
                            call, heat_s=0.3, calls=max(20, len(sets)))
                    else:
                        ms = time_call(call, heat_s=0.3, window_s=0.03)
                row["us"] = ms * 1e3
                row["hbm_sol"] = row["t_hbm_us"] / row["us"]
        except Exception as error:   # a row that cannot run says why
            row["ok"], row["error"] = False, f"{type(error).__name__}: {error}"
        rows.append(row)
        print(json.dumps({key: row.get(key) for key in
                          ("workload", "m", "impl", "us", "ok", "plan",
                           "hbm_sol")}),
              flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--ms", default="8192,16,1")
    parser.add_argument("--graphs", action="store_true",
                        help="time CUDA-graph replays (one call per input "
                        "set, at least 20): the kernels without the host's "
                        "launch path, which bounds the decode rows otherwise")
    parser.add_argument("--block", action="store_true",
                        help="add block-wise fp8 rows (128 x 128 weight "
                        "blocks, 1 x 128 activation groups): sol's kernel "
                        "against torch._scaled_mm's block-wise scaling")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("bench/fp8.py needs a CUDA GPU (fp8 tensor cores)")
        return 1
    meta = {"card": torch.cuda.get_device_name(),
            "date": datetime.date.today().isoformat(),
            "torch": torch.__version__}
    rows = []
    for workload in args.workloads.split(","):
        for m in map(int, args.ms.split(",")):
            rows += measure(workload, m, meta, args.graphs, args.block)
            with open(args.out, "w") as f:
                json.dump(rows, f, indent=1)
    columns = ("sol_fp8", "sol_bf16", "scaled_mm", "inductor_fp8", "bf16",
               *WEIGHT_ONLY_VARIANTS, "inductor_wo",
               *(("sol_fp8_block", "scaled_mm_block", "inductor_fp8_block")
                 if args.block else ()))
    print(f"{'workload':8} {'M':>5} " + " ".join(f"{i:>14}" for i in columns))
    for workload in args.workloads.split(","):
        for m in map(int, args.ms.split(",")):
            us = {r["impl"]: r["us"] for r in rows
                  if r["workload"] == workload and r["m"] == m}
            print(f"{workload:8} {m:>5} " + " ".join(
                f"{us.get(i) or float('nan'):14.1f}" for i in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
