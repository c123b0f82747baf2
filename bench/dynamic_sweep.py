#!/usr/bin/env python3
"""Dynamic M on the GPU: one sol kernel set compiled for every token count
against sol's static kernels (one compilation per M), eager PyTorch (cuBLAS
plus eager epilogue ops) and the default torch.compile, in the same run.

    python3 bench/dynamic_sweep.py --out bench/results/<date>-<card>-dynamic-sweep.json \
        [--workloads oproj,mlp,swiglu] [--ms 1,2,3,...] [--no-static]

Workloads (fp16, the seed's widths): o_proj + residual (N = K = 2560), MLP
up + bias + GELU (2560 -> 10240), the SwiGLU MLP (gate and up 2560 -> 6912,
SiLU * up, down 6912 -> 2560). M sweeps powers of two from 1 to 8192 and
odd values (3, 37, 999, 3001).

Each sol result is checked against a float64 reference of the same inputs
(`ok`: max |diff| / max |ref| <= REL_TOL). Timing is bench/models.py's: the
card heated, then the median of 5 windows of >= 20 ms of back-to-back calls
between CUDA events (host launch cost included, as a framework sees it).
Rows: {"workload", "m", "impl", "us", "ok", "rel_err", "compile_s",
"plan" (sol), "t_pred_us" (sol)}; the file also records the card, the date
and the dynamic kernel set's plan table.
"""

import argparse
import datetime
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import (REL_TOL, rel_err, sol_module as module,  # noqa: E402
                    sol_plan_at, sol_plans as plans_of, sol_runner,
                    time_call)

MS = [1, 2, 3, 4, 8, 16, 32, 37, 64, 128, 256, 512, 999, 1024, 2048, 3001,
      4096, 8192]


def _oproj(m):
    return (f"func.func @oproj_residual(%x: tensor<{m}x2560xf16>, "
            f"%w: tensor<2560x2560xf16>, %r: tensor<{m}x2560xf16>) -> "
            f"tensor<{m}x2560xf16> {{\n"
            f"  %p = sol.matmul %x, %w transpose_b : tensor<{m}x2560xf16>, "
            f"tensor<2560x2560xf16> -> tensor<{m}x2560xf16>\n"
            f"  %o = sol.add %p, %r : tensor<{m}x2560xf16>, "
            f"tensor<{m}x2560xf16> -> tensor<{m}x2560xf16>\n"
            f"  return %o : tensor<{m}x2560xf16>\n}}")


def _mlp(m):
    return (f"func.func @mlp_up_gelu(%x: tensor<{m}x2560xf16>, "
            f"%w: tensor<10240x2560xf16>, %b: tensor<10240xf16>) -> "
            f"tensor<{m}x10240xf16> {{\n"
            f"  %h = sol.matmul %x, %w transpose_b : tensor<{m}x2560xf16>, "
            f"tensor<10240x2560xf16> -> tensor<{m}x10240xf16>\n"
            f"  %hb = sol.add %h, %b : tensor<{m}x10240xf16>, "
            f"tensor<10240xf16> -> tensor<{m}x10240xf16>\n"
            f"  %g = sol.gelu tanh %hb : tensor<{m}x10240xf16>\n"
            f"  return %g : tensor<{m}x10240xf16>\n}}")


def _swiglu(m):
    return (f"func.func @swiglu_mlp(%x: tensor<{m}x2560xf16>, "
            f"%wg: tensor<6912x2560xf16>, %wu: tensor<6912x2560xf16>, "
            f"%wd: tensor<2560x6912xf16>) -> tensor<{m}x2560xf16> {{\n"
            f"  %g = sol.matmul %x, %wg transpose_b : tensor<{m}x2560xf16>, "
            f"tensor<6912x2560xf16> -> tensor<{m}x6912xf16>\n"
            f"  %s = sol.silu %g : tensor<{m}x6912xf16>\n"
            f"  %u = sol.matmul %x, %wu transpose_b : tensor<{m}x2560xf16>, "
            f"tensor<6912x2560xf16> -> tensor<{m}x6912xf16>\n"
            f"  %h = sol.mul %s, %u : tensor<{m}x6912xf16>, "
            f"tensor<{m}x6912xf16> -> tensor<{m}x6912xf16>\n"
            f"  %y = sol.matmul %h, %wd transpose_b : tensor<{m}x6912xf16>, "
            f"tensor<2560x6912xf16> -> tensor<{m}x2560xf16>\n"
            f"  return %y : tensor<{m}x2560xf16>\n}}")


def _oproj_torch(x, w, r):
    return torch.nn.functional.linear(x, w) + r


def _mlp_torch(x, w, b):
    return torch.nn.functional.gelu(torch.nn.functional.linear(x, w, b),
                                    approximate="tanh")


def _swiglu_torch(x, wg, wu, wd):
    f = torch.nn.functional
    return f.linear(f.silu(f.linear(x, wg)) * f.linear(x, wu), wd)


# workload -> (sol function text at M, torch function, input shapes at M:
# "m" stands for the dynamic dim)
WORKLOADS = {
    "oproj": (_oproj, _oproj_torch, [("m", 2560), (2560, 2560), ("m", 2560)]),
    "mlp": (_mlp, _mlp_torch, [("m", 2560), (10240, 2560), (10240,)]),
    "swiglu": (_swiglu, _swiglu_torch,
               [("m", 2560), (6912, 2560), (6912, 2560), (2560, 6912)]),
}


def inputs_at(shapes, m, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    out = []
    for shape in shapes:
        shape = [m if d == "m" else d for d in shape]
        scale = 1.0 / (shape[-1] ** 0.5) if len(out) else 1.0
        out.append((torch.randn(shape, generator=gen, device="cuda") * scale)
                   .half())
    return out


def time_us(fn):
    """Median us per call (bench/timing.py, shorter heat and windows: the
    sweep has ~200 rows)."""
    return time_call(fn, heat_s=0.3, window_s=0.02) * 1e3


def plan_at(compilation, m):
    """The plans sol launches at M and their predicted time."""
    return sol_plan_at(compilation, m)[:2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--workloads", default="oproj,mlp,swiglu")
    parser.add_argument("--ms", default=",".join(map(str, MS)))
    parser.add_argument("--no-static", action="store_true")
    parser.add_argument("--no-inductor", action="store_true")
    args = parser.parse_args()
    import sol
    ms = [int(m) for m in args.ms.split(",")]
    doc = {"date": datetime.date.today().isoformat(),
           "card": torch.cuda.get_device_name(),
           "torch": torch.__version__, "rows": [], "plan_tables": {}}

    def write():
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)

    def add(**row):
        doc["rows"].append(row)
        print(" ".join(f"{k}={v:.1f}" if isinstance(v, float) else
                       f"{k}={v}" for k, v in row.items()), flush=True)
        write()

    for name in args.workloads.split(","):
        text_at, torch_fn, shapes = WORKLOADS[name]
        start = time.perf_counter()
        dynamic = sol.compile(module(text_at("?"), (1, max(ms))))
        dynamic_s = time.perf_counter() - start
        doc["plan_tables"][name] = plans_of(dynamic)
        run_dynamic = sol_runner(dynamic)
        compiled = torch.compile(torch_fn)
        for m in ms:
            ins = inputs_at(shapes, m, seed=m)
            ref = torch_fn(*[t.double() for t in ins])
            got = run_dynamic(ins)[0]
            plan, t_pred = plan_at(dynamic, m)
            add(workload=name, m=m, impl="sol_dynamic",
                us=time_us(lambda: run_dynamic(ins)),
                ok=rel_err(got, ref) <= REL_TOL, rel_err=rel_err(got, ref),
                compile_s=dynamic_s if m == ms[0] else 0.0, plan=plan,
                t_pred_us=t_pred)
            if not args.no_static:
                start = time.perf_counter()
                static = sol.compile(module(text_at(m)))
                static_s = time.perf_counter() - start
                run_static = sol_runner(static)
                got = run_static(ins)[0]
                plan, t_pred = plan_at(static, m)
                add(workload=name, m=m, impl="sol_static",
                    us=time_us(lambda: run_static(ins)),
                    ok=rel_err(got, ref) <= REL_TOL, rel_err=rel_err(got, ref),
                    compile_s=static_s, plan=plan, t_pred_us=t_pred)
            got = torch_fn(*ins)
            add(workload=name, m=m, impl="eager",
                us=time_us(lambda: torch_fn(*ins)),
                ok=rel_err(got, ref) <= REL_TOL, rel_err=rel_err(got, ref))
            if not args.no_inductor:
                start = time.perf_counter()
                got = compiled(*ins)
                add(workload=name, m=m, impl="inductor",
                    us=time_us(lambda: compiled(*ins)),
                    ok=rel_err(got, ref) <= REL_TOL, rel_err=rel_err(got, ref),
                    compile_s=time.perf_counter() - start)
    summarize(doc)
    write()


def summarize(doc):
    """Per workload: sol_dynamic against each peer, geomean of the time
    ratios and the worst M."""
    import math
    by = {}
    for row in doc["rows"]:
        by[(row["workload"], row["m"], row["impl"])] = row["us"]
    workloads = sorted({r["workload"] for r in doc["rows"]})
    print(f"{'workload':10} {'peer':12} {'geomean peer/dyn':>17} "
          f"{'worst M':>8} {'worst':>7}")
    summary = []
    for w in workloads:
        for peer in ("sol_static", "eager", "inductor"):
            ratios = [(by[(w, m, peer)] / by[(w, m, "sol_dynamic")], m)
                      for (ww, m, impl) in by if ww == w and
                      impl == "sol_dynamic" and (w, m, peer) in by]
            if not ratios:
                continue
            geo = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
            worst = min(ratios)
            summary.append({"workload": w, "peer": peer, "geomean": geo,
                            "worst_m": worst[1], "worst": worst[0]})
            print(f"{w:10} {peer:12} {geo:17.3f} {worst[1]:8} "
                  f"{worst[0]:7.3f}")
    doc["summary"] = summary


if __name__ == "__main__":
    sys.exit(main())
