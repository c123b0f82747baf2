#!/usr/bin/env python3
"""sol's plans for skinny GEMMs (1 to 64 rows against a model's weight)
against cuBLAS, on the GPU, in one run.

    python3 bench/skinny.py --out OUT.json [--ms 1,2,4,8,16,32]
        [--shapes llama3_8b.qo,...] [--ranks 3] [--paths swap_ab]
        [--dtype bf16] [--previous EARLIER.json]

For each weight (N, K) of SHAPES and each M, the implementations:

  cublas      torch.nn.functional.linear (cuBLAS's choice for the shape);
  sol         sol's default plan for the static shape;
  sol_noswap  sol without the swap_ab path (paths=gemv,mma_sync,wgmma,
              wgmma_tma): what sol chose before it;
  sol_previous  with --previous, the plan `sol` had in that earlier run
              of this script (its own row of the same shape and M), asked
              for by its options (an error row where they give another
              plan): whether a change to the model chose faster plans,
              timed in the same run (bench/NOTES.md section 37);
  PATH_rN     the cost model's N-th plan of each path of --paths
              (paths=PATH rank=N), for N < --ranks (or PATH:RANKS's own): whether the model's
              order is the measured one. --ranks all times every plan of
              the path (for swap_ab, those whose row tile is the smallest
              that holds M: the larger ones only pad more rows): the data
              bench/NOTES.md sections 34-36 fit the model to.

Every output is first checked against a float64 reference of the same
inputs (bench/timing.py's REL_TOL); a row that fails is written with `us`
null and is not timed. Timing: CUDA-graph replays (bench/timing.py's
time_graph_call) rotating through copies of the inputs that exceed 3x the
L2, so each call streams its weight from HBM as a layer in a model does.
Rows: shape, n, k, m, dtype, impl, us, ok, rel_err, plan, t_pred_us,
t_hbm_us (the weight and activations once at the datasheet's 4.8 TB/s).
"""
import argparse
import datetime
import json
import os
import re
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import rotating, rotation  # noqa: E402
from timing import (REL_TOL, rel_err, sol_module, sol_plan_at,  # noqa: E402
                    sol_plan_name, sol_runner, time_graph_call)

# name -> (N, K): decode's weights in real models (their configs on the
# Hugging Face hub): attention q/o, the GQA k/v projection, the MLP's gate
# (= up) and down; the 2048/8192 Llama-family model bench/models.py runs;
# a narrow, deep one (a MoE router or a 256-wide expert).
SHAPES = {
    "llama3_8b.qo": (4096, 4096), "llama3_8b.kv": (1024, 4096),
    "llama3_8b.gate": (14336, 4096), "llama3_8b.down": (4096, 14336),
    "llama_2b.qo": (2048, 2048), "llama_2b.kv": (512, 2048),
    "llama_2b.gate": (8192, 2048), "llama_2b.down": (2048, 8192),
    "qwen2.5_7b.q": (3584, 3584), "qwen2.5_7b.kv": (512, 3584),
    "narrow.deep": (256, 7168),
}
HBM_BYTES_PER_S = 4.8e12   # H200 HBM3e, datasheet
NO_SWAP_PATHS = "gemv,mma_sync,wgmma,wgmma_tma"


def sol_text(m, n, k, dtype):
    x, w, o = (f"tensor<{m}x{k}x{dtype}>", f"tensor<{n}x{k}x{dtype}>",
               f"tensor<{m}x{n}x{dtype}>")
    return (f"func.func @skinny(%x: {x}, %w: {w}) -> {o} {{\n"
            f"  %m = sol.matmul %x, %w transpose_b : {x}, {w} -> {o}\n"
            f"  return %m : {o}\n}}")


def plan_options(name):
    """sol-to-ptx options asking for the plan named as sol_plan_name names
    it ("wgmma_tma64x128.pingpong/sk8", "mma_sync16x64/sk4"); None for a
    plan they cannot name (swap_ab's K warps, a cluster). `tiles` binds the
    wgmma paths only: implementations() checks the plan they gave."""
    match = re.fullmatch(r"([a-z_]+?)(\d+)x(\d+)(?:\.(\w+))?(?:/sk(\d+))?",
                         name)
    if not match:
        return None
    path, rows, cols, schedule, split = match.groups()
    options = f"paths={path} tiles={rows}x{cols}"
    if schedule:
        options += f" schedules={schedule}"
    return options + (f" split-k={split}" if split else " max-split-k=1")


def implementations(m, n, k, dtype, ranks, paths, previous=None):
    """impl -> (function of (x, w), its sol compilation or None)."""
    import sol
    impls = {"cublas": (torch.nn.functional.linear, None)}
    options = {"sol": None, "sol_noswap": "paths=" + NO_SWAP_PATHS}
    if previous:
        options["sol_previous"] = plan_options(previous)
        if options["sol_previous"] is None:
            impls["sol_previous"] = (ValueError(
                f"plan {previous} has no options that force it"), None)
            del options["sol_previous"]
    every = set()    # paths whose every plan is timed
    for entry in paths:
        path, _, count = entry.partition(":")
        count = count or ranks
        if count == "all":
            every.add(path)
        for r in range(96 if count == "all" else int(count)):
            options[f"{path}_r{r}"] = f"paths={path} rank={r}"
    rows_tile = 8 if m <= 8 else 16 if m <= 16 else 32
    seen = set()     # plans timed
    ranked = {}      # path -> the plans its ranks compiled
    done = set()     # paths whose ranks ran past their last candidate
    for name, option in options.items():
        path = name.rsplit("_r", 1)[0] \
            if name not in ("sol", "sol_noswap", "sol_previous") else None
        if path in done:
            continue
        try:
            compilation = sol.compile(sol_module(sol_text(m, n, k, dtype)),
                                      options=option)
        except Exception as error:   # noqa: BLE001 - the row says why
            impls[name] = (error, None)
            continue
        plan = json.dumps([kernel.manifest["plan"]
                           for kernel in compilation.kernels], sort_keys=True)
        if path is not None:
            if plan in ranked.setdefault(path, set()):
                if path in every:
                    done.add(path)  # a rank past the last candidate repeats
                continue
            ranked[path].add(plan)
            if plan in seen:
                continue    # sol's own plan: its row is timed already
        seen.add(plan)
        if path in every and path == "swap_ab" and \
                compilation.kernels[0].manifest["plan"]["tile"][0] != rows_tile:
            continue
        run = sol_runner(compilation)
        impls[name] = (lambda x, w, run=run: run([x, w])[0], compilation)
    # The options name a tile only for the wgmma paths (sol-tile's `tiles`):
    # elsewhere they may give another plan, which must not pass for it.
    fn, compilation = impls.get("sol_previous", (None, None))
    if compilation is not None:
        got = sol_plan_name(compilation.kernels[0].manifest["plan"])
        if got != previous:
            impls["sol_previous"] = (ValueError(
                f"options {options['sol_previous']!r} gave {got}, not "
                f"{previous}"), None)
    return impls


def measure(shape, m, dtype, ranks, paths, meta, previous=None):
    from sol.inductor import l2_bytes
    n, k = SHAPES[shape]
    torch_dtype = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    generator = torch.Generator(device="cuda").manual_seed(m * 7919 + n + k)
    x = torch.randn(m, k, device="cuda", generator=generator).to(torch_dtype)
    w = (torch.randn(n, k, device="cuda", generator=generator) /
         k ** 0.5).to(torch_dtype)
    ref = x.double() @ w.double().T
    sets = rotation([x, w], 3 * l2_bytes(0))
    rows = []
    for impl, (fn, compilation) in implementations(m, n, k, dtype, ranks,
                                                   paths, previous).items():
        row = dict(meta, shape=shape, n=n, k=k, m=m, dtype=dtype, impl=impl,
                   us=None, ok=False, plan=None, t_pred_us=None,
                   t_hbm_us=(n * k + m * k + m * n) * 2 / HBM_BYTES_PER_S
                   * 1e6)
        if isinstance(fn, Exception):
            row["error"] = f"{type(fn).__name__}: {fn}"
            rows.append(row)
            continue
        if compilation is not None:
            row["plan"], row["t_pred_us"], _ = sol_plan_at(compilation, m)
        try:
            with torch.no_grad():
                row["rel_err"] = rel_err(fn(x, w), ref)
            row["ok"] = row["rel_err"] <= REL_TOL
            if row["ok"]:
                with torch.no_grad():
                    ms, row["timing"] = time_graph_call(
                        rotating(fn, sets), heat_s=0.15,
                        calls=max(20, len(sets)))
                row["us"] = ms * 1e3
        except Exception as error:   # noqa: BLE001 - the row says why
            row["ok"], row["error"] = False, f"{type(error).__name__}: {error}"
        rows.append(row)
    return rows


def summarize(rows):
    """One line per (shape, M): each impl's us, sol's speedup over cuBLAS."""
    by_case = {}
    for row in rows:
        by_case.setdefault((row["shape"], row["m"]), {})[row["impl"]] = row
    lines = []
    for (shape, m), impls in by_case.items():
        cublas = impls.get("cublas", {}).get("us")
        cells = []
        for impl, row in impls.items():
            us = row.get("us")
            text = f"{us:.1f}" if us else ("FAIL" if not row["ok"] else "-")
            plan = f" {row['plan']}" if row.get("plan") and impl == "sol" \
                else ""
            cells.append(f"{impl}={text}{plan}")
        sol_us = impls.get("sol", {}).get("us")
        ratio = f"{cublas / sol_us:.2f}x" if cublas and sol_us else "-"
        lines.append(f"{shape:15s} m={m:<3d} sol/cublas {ratio:6s} " +
                     " ".join(cells))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--ms", default="1,2,4,8,16,32")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--ranks", default="3",
                        help="ranks of each path to time, or 'all'")
    parser.add_argument("--paths", default="swap_ab",
                        help="comma-separated paths whose ranks are timed, "
                        "each as PATH or PATH:RANKS (its own count)")
    parser.add_argument("--dtype", default="bf16", choices=["bf16", "f16"])
    parser.add_argument("--previous",
                        help="an earlier run's JSON: time its sol plans too")
    args = parser.parse_args()
    previous = {}
    if args.previous:
        with open(args.previous) as f:
            previous = {(r["shape"], r["m"]): r["plan"] for r in json.load(f)
                        if r["impl"] == "sol" and r.get("plan")}
    meta = {"date": datetime.date.today().isoformat(),
            "card": torch.cuda.get_device_name(0)}
    rows = []
    for shape in args.shapes.split(","):
        for m in (int(v) for v in args.ms.split(",")):
            rows += measure(shape, m, args.dtype, args.ranks,
                            args.paths.split(","), meta,
                            previous.get((shape, m)))
            with open(args.out, "w") as f:
                json.dump(rows, f, indent=1)
            print("\n".join(summarize([r for r in rows if r["shape"] == shape
                                       and r["m"] == m])), flush=True)
    failed = [r for r in rows if not r["ok"]]
    print(f"{len(rows)} rows, {len(failed)} failed or errored")
    for row in failed[:20]:
        print("  FAIL", row["shape"], row["m"], row["impl"],
              row.get("rel_err"), row.get("error", "")[:200])


if __name__ == "__main__":
    main()
