"""sol's GEMM plans against cuBLAS at the torch backend's shapes, timed
interleaved on a heated card (bench/torch_backend_gpu.py's method).

    bench/diag.sh gemm --shapes oproj,mlp_gelu --variants pp128,coop256
    (or SOL_CAPI_LIB=... PYTHONPATH=python:bench python3 bench/gemm_variants.py)
    ... --ncu   # one launch of each, for ncu (no timing; diag.sh gemm --with-ncu)
    ... --graphs  # each call a CUDA graph's replay: device time alone

Plain timing counts the host's dispatch (a Python `Kernel.launch` against
`F.linear`) wherever it is longer than the kernel (2048^3 on an H100: 35-43
us of host per sol call against 25 us of cuBLAS kernel, NOTES section 52);
--graphs times replays of one captured call, so the figures compare the
kernels. (Its runs of 2026-12-07 crashed in graph.replay: the graphs
outlived the kernels they captured, whose modules unloaded when this
script dropped its launch functions; torch_backend_gpu.graphed now keeps
them with the replay, NOTES section 55. Not rerun on a GPU since.)

Question (bench/NOTES.md section 22): cuBLAS's nvjet kernels run these
shapes at ~0.93 of the tensor peak per clock, sol's at ~0.79. Is the gap
the L2 traffic per MAC (tile size, multicast) or the epilogue? Each plan
variant is pinned with sol-tile's tiles/schedules/min-cluster options.
"""
import argparse
import contextlib
import sys

import torch
import torch.nn.functional as F

import sol
from run_bench import ClockSampler
from timing import device_target
from torch_backend_gpu import graphed, host_us, time_interleaved

SHAPES = {  # name: (M, N, K, epilogue)
    "mlp_gelu": (8192, 10240, 2560, "gelu"),
    "mlp_plain": (8192, 10240, 2560, None),
    "oproj": (8192, 2560, 2560, None),
    "gate": (2048, 6912, 2560, None),
    "down": (2048, 2560, 6912, None),
    # SwiGLU's gate and up projections as sibling matmuls in one kernel,
    # silu(x Wg^T) * (x Wu^T), against cuBLAS's two GEMMs and the product.
    "gate_up": (2048, 6912, 2560, "swiglu"),
    # K scaling at the prefill's M x N: a cost per tile (the stores) shows
    # as the intercept of time over K.
    "oproj_k1280": (8192, 2560, 1280, None),
    "oproj_k5120": (8192, 2560, 5120, None),
    # The same tiles storing f32: twice the bytes per tile.
    "oproj_f32out": (8192, 2560, 2560, "f32"),
    # Llama 3.2 1B's prefill at 2048 tokens (hidden 2048, MLP 8192), where
    # the measured choice of 2026-12-07 gave cuBLAS every large region on
    # an H100 (NOTES section 48).
    "l1b_qo": (2048, 2048, 2048, None),
    "l1b_gate": (2048, 8192, 2048, None),
    "l1b_gate_up": (2048, 8192, 2048, "swiglu"),
    "l1b_down": (2048, 2048, 8192, None),
    # Llama 3 8B's at 2048 tokens (hidden 4096, MLP 14336).
    "l8b_gate_up": (2048, 14336, 4096, "swiglu"),
    "l8b_down": (2048, 4096, 14336, None),
    # Plans the store-instruction turnaround (NOTES section 53) moved, each
    # against the plan it replaced: the seed o_proj at 2048 rows (ping-pong
    # 128x160 -> cooperative 256x160), Llama 3 8B's q/k/v at 4096 (ping-pong
    # 128x192 -> cooperative 128x256), GPT-2's (hidden 768) at 2048 and
    # 1024 rows (64-row ping-pong -> 128-row tiles).
    "oproj2048": (2048, 2560, 2560, None),
    "l8b_qkv": (4096, 6144, 4096, None),
    "gpt2_o": (2048, 768, 768, None),
    "gpt2_up": (1024, 3072, 768, None),
}

VARIANTS = {
    "default": "",
    "pp128": "paths=wgmma_tma schedules=pingpong tiles=128x128",
    "pp144": "paths=wgmma_tma schedules=pingpong tiles=128x144",
    "pp160": "paths=wgmma_tma schedules=pingpong tiles=128x160",
    "pp192": "paths=wgmma_tma schedules=pingpong tiles=128x192",
    "pp128c2": "paths=wgmma_tma schedules=pingpong tiles=128x128 "
               "min-cluster=2 max-cluster=2",
    "coop128": "paths=wgmma_tma schedules=cooperative tiles=128x128",
    "coop128c2": "paths=wgmma_tma schedules=cooperative tiles=128x128 "
                 "min-cluster=2 max-cluster=2",
    "coop256": "paths=wgmma_tma tiles=128x256",
    "tall128": "paths=wgmma_tma tiles=256x128",
    "tall160": "paths=wgmma_tma tiles=256x160",
    "tall192": "paths=wgmma_tma tiles=256x192",
    "coop256c2": "paths=wgmma_tma tiles=128x256 min-cluster=2 max-cluster=2",
    # The fragment's 4-byte pair stores instead of wide stores (16 bytes
    # per lane after a quad transpose, convert-sol-kernels-to-gpu's
    # wide-stores, on by default since 2026-12-07, NOTES section 52).
    "pairs": "wide-stores=false",
    "pp128p": "paths=wgmma_tma schedules=pingpong tiles=128x128 "
              "wide-stores=false",
    "coop256p": "paths=wgmma_tma tiles=128x256 wide-stores=false",
    "pp64x128": "paths=wgmma_tma schedules=pingpong tiles=64x128",
    "pp64x192": "paths=wgmma_tma schedules=pingpong tiles=64x192",
    # Each unit's first wgmma overwriting its accumulators instead of
    # zeroed registers (convert-sol-kernels-to-gpu's overwrite-first-k,
    # off by default, NOTES section 54).
    "ow": "overwrite-first-k=true",
    "pp128ow": "paths=wgmma_tma schedules=pingpong tiles=128x128 "
               "overwrite-first-k=true",
    "coop256ow": "paths=wgmma_tma tiles=128x256 overwrite-first-k=true",
}


def ir(m, n, k, epilogue, target):
    body = (f"%m = sol.matmul %x, %w transpose_b : tensor<{m}x{k}xf16>, "
            f"tensor<{n}x{k}xf16> -> tensor<{m}x{n}xf16>\n")
    args = f"%x: tensor<{m}x{k}xf16>, %w: tensor<{n}x{k}xf16>"
    result, out = "%m", "f16"
    if epilogue == "f32":
        body += (f"%c = sol.cast %m : tensor<{m}x{n}xf16> to "
                 f"tensor<{m}x{n}xf32>\n")
        result, out = "%c", "f32"
    if epilogue == "swiglu":
        args += f", %u: tensor<{n}x{k}xf16>"
        body += (f"%s = sol.silu %m : tensor<{m}x{n}xf16>\n"
                 f"%v = sol.matmul %x, %u transpose_b : tensor<{m}x{k}xf16>, "
                 f"tensor<{n}x{k}xf16> -> tensor<{m}x{n}xf16>\n"
                 f"%p = sol.mul %s, %v : tensor<{m}x{n}xf16>, "
                 f"tensor<{m}x{n}xf16> -> tensor<{m}x{n}xf16>\n")
        result = "%p"
    if epilogue == "gelu":
        args += f", %b: tensor<{n}xf16>"
        body += (f"%s = sol.add %m, %b : tensor<{m}x{n}xf16>, tensor<{n}xf16>"
                 f" -> tensor<{m}x{n}xf16>\n"
                 f"%g = sol.gelu tanh %s : tensor<{m}x{n}xf16>\n")
        result = "%g"
    return (f'module attributes {{sol.target = #sol.target<"{target}">}} {{\n'
            f"func.func @g({args}) -> tensor<{m}x{n}x{out}> {{\n{body}"
            f"return {result} : tensor<{m}x{n}x{out}>\n}}\n}}\n")


def plan_text(kernel):
    p = kernel.manifest["plan"]
    return (f"{p['tile'][0]}x{p['tile'][1]} {p.get('schedule', p['path'])} "
            f"c{p['cluster']}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ncu", action="store_true")
    parser.add_argument("--graphs", action="store_true",
                        help="time replays of a CUDA graph of one call")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--target", default=None,
                        help="the preset the plans are priced for (default: "
                        "the card's, timing.device_target())")
    args = parser.parse_args()
    target = args.target or device_target()
    torch.manual_seed(0)
    # ncu replays each kernel under its own clock control: no sampler.
    sampler = contextlib.nullcontext() if args.ncu else ClockSampler()
    with sampler as clock:
        for name in args.shapes.split(","):
            m, n, k, epilogue = SHAPES[name]
            x = torch.randn(m, k, device="cuda", dtype=torch.float16)
            w = torch.randn(n, k, device="cuda", dtype=torch.float16) / k ** 0.5
            b = torch.randn(n, device="cuda", dtype=torch.float16)
            inputs = (x, w, b) if epilogue == "gelu" else (x, w)
            if epilogue == "swiglu":
                u = torch.randn(n, k, device="cuda",
                                dtype=torch.float16) / k ** 0.5
                inputs = (x, w, u)

                def cublas(x, w, u):
                    return F.silu(F.linear(x, w)) * F.linear(x, u)
            elif epilogue == "f32":
                def cublas(x, w):
                    return F.linear(x, w).float()
            elif epilogue:
                def cublas(x, w, b):
                    return F.gelu(F.linear(x, w, b), approximate="tanh")
            else:
                def cublas(x, w):
                    return F.linear(x, w)
            expected = cublas(*inputs).float()
            impls = {"cublas": cublas}
            seen = {}
            text = ir(m, n, k, epilogue, target)
            for label in args.variants.split(","):
                options = VARIANTS[label]
                try:
                    kernels = sol.compile(text, options=options or None).kernels
                except sol.SolError as error:
                    print(f"{name} {label}: no plan: {str(error)[:120]}")
                    continue
                if len(kernels) != 1:
                    print(f"{name} {label}: {len(kernels)} kernels, skipped")
                    continue
                kernel = kernels[0]
                plan = plan_text(kernel)
                if "wide-stores=false" in options:
                    plan += " pairs"
                if "overwrite-first-k=true" in options:
                    plan += " ow"
                if plan in seen:
                    continue
                seen[plan] = label
                got = kernel.launch(*inputs).float()
                share = ((got - expected).abs() <= 1e-2 + 1e-2 * expected.abs()) \
                    .float().mean().item()
                print(f"{name} {label}: {plan}, t_pred "
                      f"{kernel.cost['t_pred_us']:.1f} us, share {share:.4f}",
                      flush=True)
                if share >= 0.99:
                    impls[f"{label} ({plan})"] = kernel.launch
            if args.ncu:
                for fn in impls.values():
                    fn(*inputs)
                torch.cuda.synchronize()
                continue
            if args.graphs:
                impls = {label: graphed(fn, inputs)[0]
                         for label, fn in impls.items()}
            else:
                for label, fn in impls.items():
                    print(f"  {name:9s} {label:28s} host {host_us(fn, inputs):6.1f}"
                          " us per call", flush=True)
            timed = time_interleaved(impls, inputs, clock)
            flops = 2 * m * n * k * (2 if epilogue == "swiglu" else 1)
            for label, (us, mhz, watts) in timed.items():
                per_ghz = flops / us / 1e6 / (mhz / 1000) if mhz else 0
                print(f"  {name:9s} {label:28s} {us:8.1f} us "
                      f"{flops / us / 1e6:6.1f} TFLOP/s {mhz or 0:5.0f} MHz "
                      f"{watts or 0:4.0f} W {per_ghz:5.1f} TFLOP/s/GHz", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
