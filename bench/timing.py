"""What the benchmarks share: the one timer, and the helpers that compile,
launch and describe sol kernels with sol's Python API (bench/dynamic_sweep.py,
bench/sweep.py).

The timer (bench/NOTES.md, method): the card heated for `heat_s`, then
`rounds` windows of >= `window_s` of back-to-back calls between CUDA events;
the median window's time per call, in ms. The H200's clock sags under load,
so nothing is timed cold. Without CUDA (the CPU smoke run) it times one call
on the host.

torch and sol are imported where they are used, so a script that only
writes or reads modules (bench/sweep.py --emit-mlir) runs without torch.
"""

import statistics
import time

# The benchmarks' correctness rule against a float64 reference of the same
# inputs: max |got - ref| / max |ref|. 2e-2 leaves room for fp16/bf16
# outputs of a K = 28672 reduction, and is far below what a wrong epilogue
# or a missing tile gives (~1 when the reference is O(1)).
REL_TOL = 2e-2


def time_call(fn, heat_s=1.0, window_s=0.05, rounds=5):
    """Median ms per call of `fn`."""
    import torch
    if not torch.cuda.is_available():
        start = time.perf_counter()
        fn()
        return (time.perf_counter() - start) * 1e3
    end = time.perf_counter() + heat_s
    calls = 0
    while time.perf_counter() < end or calls < 3:
        fn()
        calls += 1
    torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    per_call = max(time.perf_counter() - start, 1e-6)
    reps = max(1, int(window_s / per_call))
    times = []
    for _ in range(rounds):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / reps)
    return statistics.median(times)


def time_graph_call(fn, heat_s=1.0, calls=20, rounds=5):
    """Median ms per call of `fn` replayed from a CUDA graph of `calls`
    calls (bench/run_bench.py's method): the kernels' time without the
    host's, which outside a graph bounds calls of a few microseconds of
    GPU work (bench/NOTES.md section 32: rows under ~25 us measured the
    Python launch path on both sides). Warmed on a side stream first, as
    capture requires; where `fn` cannot be captured, or there is no CUDA,
    time_call's figure instead, and the second value says which: "graph"
    or "calls"."""
    import torch
    if not torch.cuda.is_available():
        return time_call(fn, heat_s, rounds=rounds), "calls"
    try:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                fn()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(calls):
                fn()
    except Exception:   # not capturable: host time counts, as time_call's
        torch.cuda.synchronize()
        return time_call(fn, heat_s, rounds=rounds), "calls"
    end = time.perf_counter() + heat_s
    while time.perf_counter() < end:
        graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        graph.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / calls)
    del graph
    return statistics.median(times), "graph"


def rel_err(got, ref):
    """max |got - ref| / max |ref|, in float64 (`ref` is the reference)."""
    return ((got.double() - ref.double()).abs().max() /
            ref.double().abs().max().clamp_min(1e-30)).item()


def device_target():
    """The torch backend's preset for the current card (default_target);
    h200 where torch is not installed (the CPU tests that run without
    it)."""
    try:
        from sol.torch_backend import default_target
    except ImportError:
        return "h200"
    return default_target()


def sol_module(function_text, dim_range=None, hints=None, target=None):
    """A module around one sol function, for `target` (default: the preset
    of the card it runs on, as the torch backend's, h200 without CUDA), with
    a dynamic dim's range (min, max) and hints (docs/dynamic-shapes.md,
    section 1) when given."""
    if target is None:
        target = device_target()
    attrs = f'sol.target = #sol.target<"{target}">'
    if dim_range:
        lo, hi = dim_range
        hint_text = (", hints = [" + ", ".join(map(str, hints)) + "]"
                     if hints else "")
        attrs += (f", sol.dim_range = #sol.dim_range<min = {lo}, "
                  f"max = {hi}{hint_text}>")
    return f"module attributes {{{attrs}}} {{\n{function_text}\n}}\n"


def sol_runner(compilation):
    """A function of the compilation's arguments (torch CUDA tensors) that
    runs its host program on the stream current at each call (so a CUDA
    graph capture, on a stream of its own, records the launches) and
    returns its results."""
    import torch
    from sol.torch_backend import HostProgram
    program = HostProgram(compilation)

    def launch(kernel, tensors):
        kernel.launch_raw(tensors, torch.cuda.current_stream().cuda_stream)
    return lambda args: program.run(args, launch)


def sol_plan_name(plan):
    """"wgmma_tma128x192.pingpong/sk2/c2" for a manifest's plan: path, the
    tile's rows x columns (a gemv's rows are its M), swap_ab's warps
    splitting K, schedule, split-K and cluster where they are not the
    default."""
    tile = plan.get("tile", [])
    name = plan["path"] + (f"{tile[0]}x{tile[1]}" if len(tile) > 1 else "")
    if plan["path"] == "swap_ab":   # the warps splitting K
        name += f"/kw{plan['warps'][0]}"
    if plan.get("schedule"):
        name += "." + plan["schedule"]
    if plan.get("split_k", 1) > 1:
        name += f"/sk{plan['split_k']}"
    if plan.get("cluster", 1) > 1:
        name += f"/c{plan['cluster']}"
    return name


def sol_plans(compilation):
    """Every kernel's plan table: one row per (kernel, M range), with the
    predicted time the manifest has for the row (at its m_max; None where
    the cost model priced no point of it)."""
    rows = []
    for kernel in compilation.kernels:
        manifest = kernel.manifest
        for row in manifest.get("plans", [manifest]):
            rows.append({"kernel": manifest["kernel"],
                         "m_min": row.get("m_min"), "m_max": row.get("m_max"),
                         "plan": row["plan"],
                         "t_pred_us": row.get("cost", {}).get("t_pred_us")})
    return rows


def target_hbm_bytes_per_s(compilation):
    """The HBM peak (bytes/s) of the target preset `compilation` was priced
    for: the datasheet figure its manifests carry (lib/Dialect/SolTarget.cpp),
    so a row's speed of light is the card's it ran on, not the H200's."""
    return compilation.kernels[0].manifest["target"]["peak_gbps"] * 1e9


def sol_plan_at(compilation, m):
    """(plan, t_pred_us, t_pred_m) of what sol launches at M: the plans of
    its kernels joined by "+", the sum of their predicted times, and the M
    that sum was priced at: `m` when every kernel has a prediction at M
    itself (a dynamic kernel has one at its range's ends and hints), else
    the largest M any of them was priced at instead (sol.inductor's
    cost_near says which), never passed off as M's."""
    from sol.inductor import cost_near, plan_row
    names, costs, elsewhere = [], [], []
    for kernel in compilation.kernels:
        row = plan_row(kernel.manifest, m)
        names.append(sol_plan_name(row["plan"]))
        cost, at = cost_near(kernel.manifest, row, m)
        costs.append(cost.get("t_pred_us"))
        if at is not None:
            elsewhere.append(at)
    if any(c is None for c in costs):
        return "+".join(names), None, None
    return "+".join(names), sum(costs), max(elsewhere) if elsewhere else m
