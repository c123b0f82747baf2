"""The benchmarks' one timer (bench/NOTES.md, method): the card heated for
`heat_s`, then `rounds` windows of >= `window_s` of back-to-back calls
between CUDA events; the median window's time per call, in ms. The H200's
clock sags under load, so nothing is timed cold. Without CUDA (the CPU smoke
run) it times one call on the host."""

import statistics
import time

import torch


def time_call(fn, heat_s=1.0, window_s=0.05, rounds=5):
    """Median ms per call of `fn`."""
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
