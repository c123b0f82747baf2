#!/usr/bin/env python3
"""Whole transformers models on the GPU: eager, Inductor (default,
max-autotune-no-cudagraphs, reduce-overhead) and torch.compile(backend="sol")
(plain and reduce-overhead), in the same process, on the same weights.

    python3 bench/models.py --out bench/results/<date>-<card>-models.json \
        [--families llama,gpt2,...] [--impls eager,inductor,sol,...]

Per family (bench/hf_models.py, real widths, random bf16 weights): prefill
at batch 4 x 512 and 1 x 2048 tokens, and one decode step against a static
KV cache of 512 tokens at batch 1, 8 and 64. Every compiled model is
compiled once with dynamic=True (one graph for every shape of a phase).
Before any timing each implementation's logits are checked against a
float32 eager reference of the same weights: `ok` is true when their
relative error (max |diff| / max |ref|) is at most twice eager bf16's own,
or 2 %.

`--budget-s S` stops starting implementations (an implementation and
phase: one compile and its rows) once S seconds have passed, so a device
call under a time limit ends with its rows, its table and the sol report
written; give S as the call's limit less the longest compile (~90 s for
Inductor's CUDA-graph prefill at the real sizes).

Timing: the card is heated for 1 s per implementation and shape, then the
call is replayed in rounds of >= 50 ms windows timed with CUDA events; the
figure is the median window's time per call (bench/NOTES.md: the H200's
clock sags under load, so nothing is timed cold). Rows are written after
every measurement (a run cut short keeps what it measured):
    {"model", "phase", "batch", "tokens", "impl", "ms", "ok", "rel_err",
     "sol_flop_share" (sol rows), "compile_s"}
"""

import argparse
import copy
import datetime
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf_models  # noqa: E402
from timing import time_call  # noqa: E402

IMPLS = {
    # impl -> (backend, torch.compile mode)
    "eager": (None, None),
    "inductor": ("inductor", None),
    "inductor_max_autotune": ("inductor", "max-autotune-no-cudagraphs"),
    "inductor_cudagraphs": ("inductor", "reduce-overhead"),
    "sol": ("sol", None),
    "sol_cudagraphs": ("sol", "reduce-overhead"),
}
PREFILL = [(4, 512), (1, 2048)]
# --sol-options / --tune: the backend's options for every sol row (the
# torch backend's docstring spells them).
SOL_OPTIONS = {}
DECODE_BATCHES = [1, 8, 64]
DECODE_PAST = 512


def rel_err(got, ref):
    ref = ref.float()
    return ((got.float() - ref).abs().max() /
            ref.abs().max().clamp_min(1e-30)).item()


# --budget-s: when to stop starting implementations (time.monotonic()).
DEADLINE = None
# --profile: where each row's torch.profiler table goes (None: no profile).
PROFILE_DIR = None
# --fp8 / --fp8-block / --fp8-weight-only: the models' linear layers
# quantised to fp8 (issue 20): "dynamic" (activations quantised per token at
# each call), "block" (block-wise: weights per 128x128 block, activations
# per token and 128-deep group) or "weight_only" (bf16 activations against
# fp8 weight codes).
FP8 = None


def profile(fn, name, calls=5):
    """torch.profiler over `calls` calls of fn: the ops by self CUDA time and
    by self CPU time, to PROFILE_DIR/<name>.txt (where a row's time goes:
    host overhead against kernels)."""
    from torch.profiler import ProfilerActivity
    with torch.profiler.profile(activities=[ProfilerActivity.CPU,
                                            ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    events = prof.key_averages()
    with open(os.path.join(PROFILE_DIR, name + ".txt"), "w") as f:
        f.write(f"{calls} calls\n")
        f.write(events.table(sort_by="self_cuda_time_total", row_limit=25))
        f.write("\n")
        f.write(events.table(sort_by="self_cpu_time_total", row_limit=25))


def compiled_model(model, impl):
    backend, mode = IMPLS[impl]
    if backend is None:
        return model
    import torch._dynamo
    torch._dynamo.reset()
    kwargs = {"dynamic": True}
    if backend == "sol":
        import sol.torch_backend
        assert sol.torch_backend.sol_backend   # registers backend="sol"
        options = dict(SOL_OPTIONS, **({"mode": mode} if mode else {}))
        return torch.compile(model, backend="sol", options=options, **kwargs)
    return torch.compile(model, backend="inductor", mode=mode, **kwargs)


def sol_share(since):
    import sol.inductor
    graphs = sol.inductor.history[since:]
    total = sum(g.matmul_flops for g in graphs)
    return (sum(g.sol_flops for g in graphs) / total) if total else None


def sol_history_len():
    try:
        import sol.inductor
        return len(sol.inductor.history)
    except Exception:
        return 0


def run_family(family, impls, out_rows, write, size="real", device="cuda",
               round_index=0):
    dtype = torch.bfloat16 if device == "cuda" or FP8 else torch.float32
    model, decoder = hf_models.build(family, size, dtype, device)
    if FP8:
        # Every decoder linear layer fp8 (hf_models.Fp8Linear, or
        # Fp8WeightOnlyLinear); `ok` then compares with twice the eager fp8
        # model's own error against the float32 model, which includes the
        # quantisation.
        hf_models.quantise_fp8(model, weight_only=FP8 == "weight_only",
                               block=FP8 == "block")
    reference, _ = hf_models.build(family, size, torch.float32, device)
    if FP8:   # the rows' model name
        family = f"{family}-fp8" + ("-block" if FP8 == "block" else
                                    "-weight-only" if FP8 == "weight_only"
                                    else "")
    cases = [("prefill", b, t) for b, t in PREFILL]
    if decoder:
        cases += [("decode", b, DECODE_PAST) for b in DECODE_BATCHES]
    inputs, refs, eager_err = {}, {}, {}
    with torch.no_grad():
        for phase, batch, tokens in cases:
            if phase == "prefill":
                ids = hf_models.tokens(model, batch, tokens, device)
                inputs[(phase, batch)] = ids
                refs[(phase, batch)] = hf_models.prefill(reference, ids)
                eager_err[(phase, batch)] = rel_err(
                    hf_models.prefill(model, ids), refs[(phase, batch)])
            else:
                _, step32 = hf_models.decode_setup(reference, batch, tokens,
                                                   device, torch.float32)
                _, step = hf_models.decode_setup(model, batch, tokens, device,
                                                 dtype)
                inputs[(phase, batch)] = step
                refs[(phase, batch)] = hf_models.decode(reference, step32)
                eager_err[(phase, batch)] = rel_err(
                    hf_models.decode(model, dict(
                        step, past_key_values=copy.deepcopy(
                            step["past_key_values"]))), refs[(phase, batch)])
    del reference
    torch.cuda.empty_cache()
    for impl in impls:
        for phase in ("prefill", "decode"):
            phase_cases = [c for c in cases if c[0] == phase]
            if not phase_cases:
                continue
            if DEADLINE is not None and time.monotonic() > DEADLINE:
                print(f"{family} {impl} {phase}: skipped, past --budget-s",
                      flush=True)
                continue
            since = sol_history_len()
            start = time.perf_counter()
            try:
                compiled = compiled_model(model, impl)
            except Exception as error:
                print(f"{family} {impl}: {error}", flush=True)
                continue
            compile_s = None
            for _, batch, tokens in phase_cases:
                key = (phase, batch)
                row = {"model": family, "phase": phase, "batch": batch,
                       "tokens": tokens, "impl": impl, "round": round_index}
                try:
                    with torch.no_grad():
                        if phase == "prefill":
                            fn = lambda: hf_models.prefill(compiled,
                                                           inputs[key])
                        else:
                            step = dict(inputs[key],
                                        past_key_values=hf_models.copy_cache(
                                            inputs[key]["past_key_values"]))
                            rewind = hf_models.rewinder(
                                step["past_key_values"], tokens)

                            def fn(step=step, rewind=rewind):
                                rewind()
                                return hf_models.decode(compiled, step)
                        got = fn()
                        if device == "cuda":
                            torch.cuda.synchronize()
                        if compile_s is None:
                            compile_s = time.perf_counter() - start
                        err = rel_err(got, refs[key])
                        row["rel_err"] = err
                        row["ok"] = err <= max(2 * eager_err[key], 0.02)
                        row["ms"] = time_call(fn)
                        if PROFILE_DIR:
                            profile(fn, f"{family}-{phase}-{batch}-{impl}")
                except Exception as error:
                    row.update(ok=False, ms=None,
                               error=f"{type(error).__name__}: {error}"[:300])
                row["compile_s"] = compile_s
                if IMPLS[impl][0] == "sol":
                    row["sol_flop_share"] = sol_share(since)
                out_rows.append(row)
                write()
                print(json.dumps(row), flush=True)
            compiled = None  # its graphs (and CUDA graph pools) go


def table(rows):
    lines = []
    keys = sorted({(r["model"], r["phase"], r["batch"], r["tokens"])
                   for r in rows}, key=lambda k: (k[0], k[1] != "prefill",
                                                  k[2], k[3]))
    impls = [i for i in IMPLS if any(r["impl"] == i for r in rows)]
    # The bar: sol against the default Inductor in the same mode
    # (plain, and in CUDA graphs); above 1 sol is faster.
    pairs = [("inductor", "sol"), ("inductor_cudagraphs", "sol_cudagraphs")]
    lines.append("| model | phase | batch x tokens | " +
                 " | ".join(impls) + " | Inductor / sol | the same, "
                 "CUDA graphs |")
    lines.append("|" + "---|" * (len(impls) + 5))
    for k in keys:
        cells, ms = [], {}
        for impl in impls:
            # Over rounds (--rounds), the median of the timed rows.
            timed = sorted((r for r in rows if (r["model"], r["phase"],
                            r["batch"], r["tokens"]) == k and
                            r["impl"] == impl and r.get("ms") is not None),
                           key=lambda r: r["ms"])
            if not timed:
                cells.append("-")
                continue
            row = dict(timed[(len(timed) - 1) // 2],
                       ok=all(r["ok"] for r in timed))
            cells.append(f"{row['ms']:.3f}" + ("" if row["ok"] else " (!)"))
            ms[impl] = row["ms"]
        ratios = [f"{ms[a] / ms[b]:.2f}x" if a in ms and b in ms else "-"
                  for a, b in pairs]
        lines.append(f"| {k[0]} | {k[1]} | {k[2]} x {k[3]} | " +
                     " | ".join(cells + ratios) + " |")
    return "\n".join(lines)


def main():
    global DECODE_PAST, PROFILE_DIR, FP8, DEADLINE
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--families", default=",".join(hf_models.FAMILIES))
    parser.add_argument("--impls", default=",".join(IMPLS))
    parser.add_argument("--size", default="real", choices=["real", "tiny"])
    parser.add_argument("--verbose", action="store_true",
                        help="log sol's measured choices (the sol logger)")
    parser.add_argument("--decode-past", type=int, default=512)
    parser.add_argument("--prefill", default=",".join(
        f"{b}x{t}" for b, t in PREFILL))
    parser.add_argument("--decode-batches", default=",".join(
        map(str, DECODE_BATCHES)))
    parser.add_argument("--profile", metavar="DIR",
                        help="write a torch.profiler table per row to DIR")
    parser.add_argument("--sol-options", default="",
                        help="sol-to-ptx options for every sol compile, as "
                        "sol-opt spells them (e.g. small-m-tma=true)")
    parser.add_argument("--fp8", action="store_true",
                        help="quantise every decoder linear layer to fp8 "
                        "(e4m3 per-channel weights, per-token activations; "
                        "the lm_head stays bf16)")
    parser.add_argument("--fp8-block", action="store_true",
                        help="quantise every decoder linear layer to fp8 "
                        "block-wise (e4m3 weights per 128x128 block, "
                        "activations per token and 128-deep group, as "
                        "DeepSeek-V3's checkpoints; the lm_head stays bf16)")
    parser.add_argument("--fp8-weight-only", action="store_true",
                        help="quantise every decoder linear layer's weight to "
                        "fp8 (e4m3 per-channel codes, dequantised in the "
                        "graph; bf16 activations; the lm_head stays bf16)")
    parser.add_argument("--budget-s", type=float, default=0,
                        help="stop starting new implementations once this "
                        "many seconds have passed (0: no limit), so one "
                        "device call ends with its rows and sol report "
                        "written instead of being killed mid-compile")
    parser.add_argument("--option", action="append", default=[],
                        metavar="KEY=VALUE",
                        help="a backend option for every sol row, VALUE as "
                        "JSON (e.g. sibling_sets=true); repeatable")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every implementation this many times, "
                        "the order reversed every other round, so a host's "
                        "drift over the run falls on each side alike; the "
                        "table shows each row's median (each round "
                        "compiles again)")
    parser.add_argument("--tune", type=int, default=0,
                        help="the backend's tune=N: time sol-tile's ranks "
                        "0..N-1 per kernel set and keep the fastest")
    args = parser.parse_args()
    if args.sol_options:
        SOL_OPTIONS["sol_options"] = args.sol_options
    if args.tune:
        SOL_OPTIONS["tune"] = args.tune
    for option in args.option:
        key, _, value = option.partition("=")
        SOL_OPTIONS[key] = json.loads(value)
    PROFILE_DIR = args.profile
    FP8 = "block" if args.fp8_block else \
        "weight_only" if args.fp8_weight_only else \
        "dynamic" if args.fp8 else None
    if PROFILE_DIR:
        os.makedirs(PROFILE_DIR, exist_ok=True)
    if args.verbose:
        import logging
        logging.basicConfig(format="%(name)s: %(message)s")
        logging.getLogger("sol").setLevel(logging.INFO)
    DECODE_PAST = args.decode_past
    # An empty list skips the phase (--prefill "" times decode alone).
    PREFILL[:] = [tuple(map(int, c.split("x"))) for c in
                  args.prefill.split(",") if c]
    DECODE_BATCHES[:] = [int(b) for b in args.decode_batches.split(",") if b]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    rows = []
    meta = {"date": datetime.date.today().isoformat(),
            "card": torch.cuda.get_device_name() if
            torch.cuda.is_available() else "cpu",
            "torch": torch.__version__, "sol_options": dict(SOL_OPTIONS)}
    try:
        import transformers
        meta["transformers"] = transformers.__version__
    except Exception:
        pass

    def write():
        # A list of rows, each stamped with the run's date, card and
        # versions.
        with open(args.out, "w") as f:
            json.dump([dict(meta, **row) for row in rows], f, indent=1)

    DEADLINE = time.monotonic() + args.budget_s if args.budget_s else None
    impls = args.impls.split(",")
    for round_index in range(args.rounds):
        for family in args.families.split(","):
            run_family(family, impls if round_index % 2 == 0 else impls[::-1],
                       rows, write, args.size, device, round_index)
    write()
    print(table(rows))
    try:
        import sol.inductor
        with open(os.path.splitext(args.out)[0] + "-sol-report.txt", "w") as f:
            f.write(sol.inductor.report() + "\n")
    except Exception as error:
        print(f"no sol report: {error}")


if __name__ == "__main__":
    main()
