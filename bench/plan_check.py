"""Correctness of one pinned plan on odd shapes, against float64, on the GPU.

    bench/diag.sh plan-check --options "paths=wgmma_tma schedules=pingpong tiles=128x192"
    (or SOL_CAPI_LIB=... PYTHONPATH=python python3 bench/plan_check.py ...)

Each case compiles matmul (+ epilogue; swiglu: sibling matmuls, one kernel
from 128 rows) with the options through the C API,
poisons the output with NaN, launches on fresh random data and compares with
float64 torch: |out - ref| <= 1e-2 + 1e-2 |ref| on every element and no
NaN left. Shapes are odd on purpose (partial tiles in M and N, K not a
multiple of the 64-deep step). Prints one line per case and a summary; exits
non-zero on any failure.
"""
import argparse
import sys

import torch

import sol

SHAPES = [(7, 77, 64), (130, 200, 136), (255, 392, 264), (200, 1001, 72),
          (1000, 1000, 1000), (129, 1544, 2056), (513, 2304, 520),
          (2048, 6912, 2560)]
EPILOGUES = ["plain", "bias_gelu", "residual", "f32", "swiglu"]


def module(m, n, k, dtype, epilogue):
    t = {"f16": torch.float16, "bf16": torch.bfloat16}[dtype]
    out = "f32" if epilogue == "f32" else dtype
    args = [f"%x: tensor<{m}x{k}x{dtype}>", f"%w: tensor<{n}x{k}x{dtype}>"]
    body = [f"%m = sol.matmul %x, %w transpose_b : tensor<{m}x{k}x{dtype}>, "
            f"tensor<{n}x{k}x{dtype}> -> tensor<{m}x{n}x{dtype}>"]
    result = "%m"
    if epilogue == "swiglu":
        # Sibling matmuls: silu(x w^T) * (x u^T), one kernel from 128 rows.
        args.append(f"%u: tensor<{n}x{k}x{dtype}>")
        body += [f"%s = sol.silu %m : tensor<{m}x{n}x{dtype}>",
                 f"%v = sol.matmul %x, %u transpose_b : tensor<{m}x{k}x{dtype}>, "
                 f"tensor<{n}x{k}x{dtype}> -> tensor<{m}x{n}x{dtype}>",
                 f"%p = sol.mul %s, %v : tensor<{m}x{n}x{dtype}>, "
                 f"tensor<{m}x{n}x{dtype}> -> tensor<{m}x{n}x{dtype}>"]
        result = "%p"
    elif epilogue == "bias_gelu":
        args.append(f"%b: tensor<{n}x{dtype}>")
        body += [f"%s = sol.add %m, %b : tensor<{m}x{n}x{dtype}>, "
                 f"tensor<{n}x{dtype}> -> tensor<{m}x{n}x{dtype}>",
                 f"%g = sol.gelu tanh %s : tensor<{m}x{n}x{dtype}>"]
        result = "%g"
    elif epilogue == "residual":
        args.append(f"%r: tensor<{m}x{n}x{dtype}>")
        body.append(f"%s = sol.add %m, %r : tensor<{m}x{n}x{dtype}>, "
                    f"tensor<{m}x{n}x{dtype}> -> tensor<{m}x{n}x{dtype}>")
        result = "%s"
    elif epilogue == "f32":
        body.append(f"%c = sol.cast %m : tensor<{m}x{n}x{dtype}> to "
                    f"tensor<{m}x{n}xf32>")
        result = "%c"
    text = (f'module attributes {{sol.target = #sol.target<"h200">}} {{\n'
            f"func.func @c({', '.join(args)}) -> tensor<{m}x{n}x{out}> {{\n"
            + "\n".join(body) + f"\nreturn {result} : tensor<{m}x{n}x{out}>"
            "\n}\n}\n")
    return text, t


def reference(inputs, epilogue):
    x, w = inputs[0].double(), inputs[1].double()
    y = x @ w.T
    if epilogue == "bias_gelu":
        y = torch.nn.functional.gelu(y + inputs[2].double(), approximate="tanh")
    elif epilogue == "residual":
        y = y + inputs[2].double()
    elif epilogue == "swiglu":
        y = torch.nn.functional.silu(y) * (x @ inputs[2].double().T)
    return y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--options", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shapes", default="",
                        help="MxNxK,... instead of the built-in list")
    parser.add_argument("--epilogues", default=",".join(EPILOGUES))
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    failures = total = 0
    shapes = [tuple(int(v) for v in s.split("x"))
              for s in args.shapes.split(",")] if args.shapes else SHAPES
    for m, n, k in shapes:
        for dtype in ("f16", "bf16"):
            for epilogue in args.epilogues.split(","):
                if epilogue == "swiglu" and m < 128:
                    continue  # two kernels below one 128-row tile
                text, t = module(m, n, k, dtype, epilogue)
                total += 1
                try:
                    kernels = sol.compile(text, options=args.options).kernels
                except sol.SolError as error:
                    failures += 1
                    print(f"FAIL {m}x{n}x{k} {dtype} {epilogue}: compile: "
                          f"{str(error)[:200]}")
                    continue
                if len(kernels) != 1:
                    failures += 1
                    print(f"FAIL {m}x{n}x{k} {dtype} {epilogue}: "
                          f"{len(kernels)} kernels, expected one")
                    continue
                kernel = kernels[0]
                x = torch.randn(m, k, device="cuda", dtype=t)
                w = torch.randn(n, k, device="cuda", dtype=t) / k ** 0.5
                inputs = [x, w]
                if epilogue == "bias_gelu":
                    inputs.append(torch.randn(n, device="cuda", dtype=t))
                elif epilogue == "residual":
                    inputs.append(torch.randn(m, n, device="cuda", dtype=t))
                elif epilogue == "swiglu":
                    inputs.append(torch.randn(n, k, device="cuda", dtype=t)
                                  / k ** 0.5)
                out_dtype = torch.float32 if epilogue == "f32" else t
                out = torch.full((m, n), float("nan"), device="cuda",
                                 dtype=out_dtype)
                kernel.launch(*inputs, out)
                torch.cuda.synchronize()
                ref = reference(inputs, epilogue)
                got = out.double()
                ok_elems = (got - ref).abs() <= 1e-2 + 1e-2 * ref.abs()
                bad = int((~ok_elems).sum().item())
                nans = int(torch.isnan(got).sum().item())
                share = 1 - bad / got.numel()
                plan = kernel.manifest["plan"]
                passed = bad == 0 and nans == 0
                failures += not passed
                print(f"{'PASS' if passed else 'FAIL'} {m}x{n}x{k} {dtype} "
                      f"{epilogue}: {plan['path']} {plan['tile']} "
                      f"{plan.get('schedule', '')} share {share:.6f} bad {bad}"
                      f" nan {nans} max err "
                      f"{(got - ref).abs().nan_to_num(float('inf')).max().item():.3g}",
                      flush=True)
    print(f"plan_check ({args.options}): {total - failures} passed, "
          f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
