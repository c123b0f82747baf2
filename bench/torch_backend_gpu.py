"""torch.compile(backend="sol") on the GPU machine: the issue 7 check.

    SOL_CAPI_LIB=<libsol_capi.so> PYTHONPATH=python CUDA_HOME=/usr/local/cuda \
        python3 bench/torch_backend_gpu.py

Three real torch.nn modules at the workloads' prefill shapes (attention
output projection + residual, MLP up + bias + GELU(tanh), a SwiGLU MLP), fp16
on CUDA: each compiled with backend="sol" must match eager (relative L2 error
and the share within 1e-2 + 1e-2 |ref|, against eager on fp32-upcast
weights), then eager and sol are timed the same way (CUDA events around 20
calls after warm-up, median of 5; host dispatch included for both, since
that is what a user of torch.compile waits).
"""
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

import sol.torch_backend as backend


class OProjResidual(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, x, r):
        return self.o_proj(x) + r


class MlpGelu(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.up = nn.Linear(d, h)

    def forward(self, x):
        return F.gelu(self.up(x), approximate="tanh")


class SwiGLU(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.gate = nn.Linear(d, h, bias=False)
        self.up = nn.Linear(d, h, bias=False)
        self.down = nn.Linear(h, d, bias=False)

    def forward(self, x):
        return self.down(F.silu(self.gate(x)) * self.up(x))


def time_us(fn, *args, iters=20, reps=5):
    for _ in range(3):
        fn(*args)
    torch.cuda.synchronize()
    samples = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn(*args)
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) * 1000 / iters)
    return statistics.median(samples)


def check(name, model, *inputs):
    model = model.cuda().half().eval()
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="sol", dynamic=False,
                             options={"report": True})
    with torch.no_grad():
        t0 = time.time()
        got = compiled(*inputs)
        first = time.time() - t0
        ref = model.float()(*[i.float() for i in inputs])
        model.half()
        expected = model(*inputs)
        err = ((got.float() - ref).norm() / ref.norm()).item()
        err_eager = ((expected.float() - ref).norm() / ref.norm()).item()
        share = ((got.float() - ref).abs() <= 1e-2 + 1e-2 * ref.abs()).float().mean().item()
        statuses = [p.status for r in backend.history[-1:] for p in r.partitions]
        eager_us = time_us(model, *inputs)
        sol_us = time_us(compiled, *inputs)
    ok = share >= 0.99 and torch.isfinite(got).all().item()
    print(f"{name}: {'PASS' if ok else 'FAIL'} rel_l2 {err:.2e} (eager {err_eager:.2e}), "
          f"share {share:.4f}; partitions {statuses}; first call {first:.1f} s; "
          f"eager {eager_us:.1f} us, sol {sol_us:.1f} us, speedup {eager_us / sol_us:.2f}x",
          flush=True)
    return ok


def main():
    torch.manual_seed(0)
    dev = "cuda"
    h = torch.float16
    results = []
    x = torch.randn(16, 512, 2560, device=dev, dtype=h)
    r = torch.randn(16, 512, 2560, device=dev, dtype=h)
    results.append(check("o_proj + residual [16,512,2560]", OProjResidual(2560), x, r))
    x2 = torch.randn(8192, 2560, device=dev, dtype=h)
    results.append(check("MLP up + bias + GELU(tanh) [8192,2560]->10240", MlpGelu(2560, 10240), x2))
    x3 = torch.randn(2048, 2560, device=dev, dtype=h) * 0.5
    results.append(check("SwiGLU MLP [2048,2560]->6912->2560", SwiGLU(2560, 6912), x3))
    print(f"torch_backend_gpu: {sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
