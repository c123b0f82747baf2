#!/usr/bin/env python3
"""Host time per call of a sol region against Inductor's extern mm, layer by
layer of sol's hot path (issue 16: in a decode step without CUDA graphs the
host is the bottleneck, and sol lost 0.83-0.92x at 100 % of the FLOPs on
2026-12-07's H100).

    python3 bench/host_path.py --out DIR      (GPU; PYTHONPATH=python:bench)

One region of a decode step's shape (M = 1 against a [N, K] weight, bf16),
compiled through torch.compile(backend="sol") with the measured choice off,
then each layer of its call timed on its own, on the host, by
time.perf_counter over many calls (the kernel is a few microseconds, so the
GPU never holds the host back; a final synchronize is inside the window):

    dispatcher   torch.ops.sol.fused.default(inputs, dims, spec): the C++
                 kernel where sol/fast_op.py installed it (SOL_FAST_OP=0:
                 the Python implementation)
    impl         sol.inductor._fused_impl(...)       (no dispatcher)
    sol_call     the resolved _SolCall(inputs)         (no lookup)
    launch       the bound kernel's ctypes launch on a prebuilt pointer array
    alloc        torch.empty_strided of the output on the device

against the peers' per-call cost at the same shape:

    aten_mm      torch.mm(a, w.t())        (dispatcher, allocation, cuBLAS)
    mm_out       torch.mm(a, w.t(), out=)  (Inductor's extern_kernels.mm)
    compiled_*   the whole compiled function, sol and Inductor

Writes DIR/host_path.json (rows: layer, us) and prints a table.
"""

import argparse
import ctypes
import datetime
import json
import os
import time

import torch


def per_call_us(fn, calls):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = None
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        us = (time.perf_counter() - start) / calls * 1e6
        best = us if best is None else min(best, us)
    return best


class Linear(torch.nn.Module):
    def __init__(self, n, k, residual):
        super().__init__()
        self.proj = torch.nn.Linear(k, n, bias=False)
        self.residual = residual

    def forward(self, x, r):
        y = self.proj(x)
        return y + r if self.residual else y


def main():
    import sol.fast_op as fast_op
    import sol.inductor as inductor
    import sol.torch_backend  # noqa: F401  (registers backend="sol")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--n", type=int, default=512)
    parser.add_argument("--k", type=int, default=2048)
    parser.add_argument("--m", type=int, default=1)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    device = torch.device("cuda")
    rows = []
    for residual in (False, True):
        model = Linear(args.n, args.k, residual).to(device, torch.bfloat16)
        x = torch.randn(args.m, args.k, device=device, dtype=torch.bfloat16)
        r = torch.randn(args.m, args.n, device=device, dtype=torch.bfloat16)
        torch._dynamo.reset()
        # The op's own arguments, as the compiled graph passes them (their
        # roles depend on the graph dynamo and Inductor make at this M),
        # recorded at its first call, which goes through _fused_first.
        seen, real_first = [], inductor._fused_first

        def recording_first(ins, dims, text):
            seen.append((list(ins), list(dims), text))
            return real_first(ins, dims, text)
        inductor._fused_first = recording_first
        with torch.no_grad():
            sol_fn = torch.compile(model, backend="sol", dynamic=True,
                                   options={"measure": False})
            try:
                got = sol_fn(x, r)
            finally:
                inductor._fused_first = real_first
            torch._dynamo.reset()
            ind_fn = torch.compile(model, backend="inductor", dynamic=True)
            ref = ind_fn(x, r)
            err = (got.float() - ref.float()).abs().max().item()
            ins, dims, text = seen[0]
            weight = model.proj.weight
            op = torch.ops.sol.fused.default
            call = inductor._calls[(text[:inductor._SPEC_KEY_CHARS], *dims)]
            out = torch.empty_like(got)
            name = "oproj_residual" if residual else "proj"
            layers = {
                "dispatcher": lambda: op(ins, dims, text),
                "impl": lambda: inductor._fused_impl(ins, dims, text),
                "sol_call": lambda: call(ins),
                "alloc": lambda: torch.empty_strided(
                    tuple(dims), (dims[-1], 1), dtype=torch.bfloat16,
                    device=device),
                "aten_mm": lambda: torch.mm(x, weight.t()),
                "mm_out": lambda: torch.mm(x, weight.t(), out=out),
                "compiled_sol": lambda: sol_fn(x, r),
                "compiled_inductor": lambda: ind_fn(x, r),
            }
            if call.single is not None:
                launch, array_type = call.single
                array = array_type(*[t.data_ptr() for t in ins],
                                   out.data_ptr())
                layers["launch"] = lambda: launch(array, args.m)
            for layer, fn in layers.items():
                us = per_call_us(fn, args.calls)
                rows.append({"region": name, "layer": layer,
                             "us": round(us, 2)})
                print(f"{name:16s} {layer:18s} {us:8.2f} us", flush=True)
            print(f"{name}: sol against Inductor max |diff| {err:.3g}; "
                  f"sol::fused's C++ kernel for {sorted(inductor._FAST_KEYS)}"
                  f", holding {fast_op.count()} calls")
    meta = {"date": datetime.date.today().isoformat(),
            "fast_op": sorted(inductor._FAST_KEYS),
            "card": torch.cuda.get_device_name(),
            "torch": torch.__version__, "m": args.m, "n": args.n,
            "k": args.k, "rows": rows}
    with open(os.path.join(args.out, "host_path.json"), "w") as f:
        json.dump(meta, f, indent=1)


if __name__ == "__main__":
    main()
