# The torch reference (python/sol/reference.py, the launcher the backend's
# CPU tests run kernels with) on fp8 results: sol.cast to fp8 rounds to
# nearest even and saturates (NaN stays NaN), and an fp8 matmul result is
# its scaled accumulator over scale_out, rounded the same way (docs/fp8.md).
# Checked against this file's own rounding (the nearest finite code by
# brute force over the kind's values), on fresh random data and on the
# values that decide saturation and ties.
# REQUIRES: torch
# RUN: %sol_python -u %s 2>&1 | FileCheck %s

import math
import os

import torch

from sol.reference import run_manifest

KINDS = {"f8e4m3fn": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}


def finite_values(dtype):
    """Every finite non-negative value of the fp8 kind, ascending."""
    codes = torch.arange(0, 128, dtype=torch.uint8).view(dtype).double()
    return codes[torch.isfinite(codes)].sort().values


def nearest(x, dtype):
    """sol.cast's rounding of doubles `x`: nearest finite value, the one with
    an even code on a tie, the largest past it, NaN for NaN."""
    values = finite_values(dtype)
    out = []
    for v in x.double().tolist():
        if v != v:
            out.append(float("nan"))
            continue
        m = abs(v)
        if m >= values[-1]:
            best = values[-1].item()
        else:
            i = int(torch.searchsorted(values, torch.tensor(m, dtype=torch.float64), right=True)) - 1
            lo, hi = values[i].item(), values[i + 1].item()
            if m - lo < hi - m or (m - lo == hi - m and i % 2 == 0):
                best = lo
            else:
                best = hi
        out.append(math.copysign(best, v))
    return torch.tensor(out, dtype=torch.float64)


def same(got, want):
    got = got.double()
    return bool(((got == want) | (got.isnan() & want.isnan())).all())


def cast_manifest(kind, n):
    return {"args": [{"name": "x", "role": "input", "dtype": "f32", "shape": [n]},
                     {"name": "q", "role": "output", "dtype": kind, "shape": [n]}],
            "program": [{"op": "arg", "index": 0},
                        {"op": "cast", "operands": [0], "dtype": kind, "shape": [n]}],
            "outputs": [1]}


seed = int.from_bytes(os.urandom(4), "little")
print(f"seed {seed}")
torch.manual_seed(seed)
for kind, dtype in KINDS.items():
    largest = finite_values(dtype)[-1].item()
    values = finite_values(dtype)
    mids = (values[1:] + values[:-1]) / 2
    special = torch.tensor([largest * 1.01, largest * 4, 1e30, float("inf"),
                            float("nan"), 0.0, 1e-40])
    x = torch.cat([values.float(), mids.float(), special,
                   torch.randn(2000) * largest / 8]).float()
    x = torch.cat([x, -x])
    got, = run_manifest(cast_manifest(kind, x.numel()), [x])
    assert got.dtype == dtype, got.dtype
    ok = same(got, nearest(x, dtype))
    print(f"cast to {kind}: {x.numel()} values, match {ok}")

# CHECK: seed
# CHECK: cast to f8e4m3fn: {{[0-9]+}} values, match True
# CHECK: cast to f8e5m2: {{[0-9]+}} values, match True

# An fp8 matmul result: acc * scale_a * scale_b / scale_out, quantised.
m, n, k = 33, 40, 48
a = (torch.rand(m, k) * 2 - 1).to(torch.float8_e4m3fn)
b = (torch.rand(n, k) * 2 - 1).to(torch.float8_e4m3fn)
sa, sb = torch.rand(m, 1) + 0.5, torch.rand(n) + 0.5
so = torch.tensor(0.004)  # small: many results saturate at 448
manifest = {
    "args": [{"name": "a", "role": "input", "dtype": "f8e4m3fn", "shape": [m, k]},
             {"name": "b", "role": "input", "dtype": "f8e4m3fn", "shape": [n, k]},
             {"name": "sa", "role": "input", "dtype": "f32", "shape": [m, 1]},
             {"name": "sb", "role": "input", "dtype": "f32", "shape": [n]},
             {"name": "so", "role": "input", "dtype": "f32", "shape": []},
             {"name": "out", "role": "output", "dtype": "f8e4m3fn", "shape": [m, n]}],
    "program": [{"op": "arg", "index": i} for i in range(5)] + [
        {"op": "matmul", "operands": [0, 1], "transpose_b": True, "scale_a": 2,
         "scale_b": 3, "scale_out": 4, "dtype": "f8e4m3fn", "shape": [m, n]}],
    "outputs": [5]}
got, = run_manifest(manifest, [a, b, sa, sb, so])
acc = (a.double() @ b.double().T) * sa.double() * sb.double() / so.double()
want = nearest(acc.flatten(), torch.float8_e4m3fn).view(m, n)
# The reference accumulates in float32: a value within float32's rounding
# of a tie may land on the other code, so compare codes within one step.
exact = (got.double() == want).float().mean().item()
saturated = (want.abs() == 448).float().mean().item()
print(f"fp8 result: {exact:.2f} exact, {saturated:.2f} saturated")
# CHECK: fp8 result: {{1.00|0.9[0-9]}} exact, {{0.[2-6][0-9]}} saturated

# Block-wise scales (docs/fp8.md, "Block-wise scales"): scale_a [M,
# ceil(K/128)] and scale_b [ceil(N/128), ceil(K/128)] scale each 128-deep K
# block's partial sum; K = 300 leaves a 44-deep last block, N = 200 two
# blocks of B's scales. Against this file's own loop over the blocks in
# float64, f32 result; and with a per-token scale_a beside block-wise B.
m, n, k = 7, 200, 300
a = (torch.rand(2, m, k) * 2 - 1).to(torch.float8_e4m3fn)
b = (torch.rand(n, k) * 2 - 1).to(torch.float8_e4m3fn)
sa = torch.rand(2, m, 3) + 0.5
sa_token = torch.rand(2, m, 1) + 0.5
sb = torch.rand(2, 3) + 0.5


def block_manifest(sa_shape):
    return {
        "args": [{"name": "a", "role": "input", "dtype": "f8e4m3fn", "shape": [2, m, k]},
                 {"name": "b", "role": "input", "dtype": "f8e4m3fn", "shape": [n, k]},
                 {"name": "sa", "role": "input", "dtype": "f32", "shape": sa_shape},
                 {"name": "sb", "role": "input", "dtype": "f32", "shape": [2, 3]},
                 {"name": "out", "role": "output", "dtype": "f32", "shape": [2, m, n]}],
        "program": [{"op": "arg", "index": i} for i in range(4)] + [
            {"op": "matmul", "operands": [0, 1], "transpose_b": True, "scale_a": 2,
             "scale_b": 3, "dtype": "f32", "shape": [2, m, n]}],
        "outputs": [4]}


def blocks_by_loop(a, b, scale_a, scale_b, groups):
    out = torch.zeros(2, m, n, dtype=torch.float64)
    for kb in range(3):
        cols = slice(kb * 128, min(k, kb * 128 + 128))
        partial = a.double()[..., cols] @ b.double()[:, cols].T
        row = scale_a.double()[..., kb:kb + 1] if groups else 1.0
        col = torch.tensor([scale_b[j // 128, kb].item() for j in range(n)],
                           dtype=torch.float64)
        out += partial * row * col
    return out if groups else out * scale_a.double()


for name, scale_a, groups in (("groups and blocks", sa, True),
                              ("token and blocks", sa_token, False)):
    got, = run_manifest(block_manifest(list(scale_a.shape)), [a, b, scale_a, sb])
    want = blocks_by_loop(a, b, scale_a, sb, groups)
    close = torch.allclose(got.double(), want, rtol=1e-5, atol=1e-5)
    print(f"block-wise {name}: {got.numel()} values, close {close}")
# CHECK: block-wise groups and blocks: 2800 values, close True
# CHECK: block-wise token and blocks: 2800 values, close True
