"""Every fp8 weight code through the weight-only paths, exactly, on the GPU.

    bench/diag.sh fp8-codes
    (or SOL_CAPI_LIB=... PYTHONPATH=python python3 bench/fp8_codes.py)

The random matrices (sol-run, plan_check) cannot see a wrong conversion of
a rare code: a flushed subnormal weight moves a K-long sum by less than its
tolerance. Here A is one-hot (row m of A selects k = m), so each output is
one code times its column's scale, exact in the 16-bit output:
out[m, n] = decode(W[n, m]) * scale[n], with scale a power of two. W's rows
cycle through all 256 codes (row n holds codes n * M .. n * M + M - 1 at
k < M, so every code is read at every row count); a NaN code makes its
whole column NaN, as the float64 reference's 0 * NaN terms do (e5m2's infinities too), and rows
n % 7 == 3 carry one more NaN code at k >= M, where A is zero, so the NaN
comes from the code alone. Other rows' NaN (and infinity) codes are replaced by zero, so
no code is hidden behind a NaN column. K = 80 is not a multiple of any
plan's K step: the lanes past K are masked.

Cases: e4m3fn against bf16 A (cvt.rn.f16x2.e4m3x2, then through f32 to
bf16), against f16 A (the cvt alone) and e5m2 against bf16, through swap_ab
at 1, 8, 29, 32 rows and gemv at 1, 8, 16. (It was written for an integer
route to bf16, bench/NOTES.md section 41, which passed it and was not kept.)
Exits non-zero on any difference.
"""
import argparse
import sys

import torch

K = 80
N = 520  # every code in a row that is not poisoned, at 1 row too; 65 groups of 8
CASES = [("swap_ab", m) for m in (1, 8, 29, 32)] + \
        [("gemv", m) for m in (1, 8, 16)]
KINDS = [("f8E4M3FN", torch.float8_e4m3fn, "bf16", torch.bfloat16),
         ("f8E4M3FN", torch.float8_e4m3fn, "f16", torch.float16),
         ("f8E5M2", torch.float8_e5m2, "bf16", torch.bfloat16)]


def module(m, code_type, elem_type):
    return (f'module attributes {{sol.target = #sol.target<"h200">}} {{\n'
            f"func.func @codes(%x: tensor<{m}x{K}x{elem_type}>, "
            f"%w: tensor<{N}x{K}x{code_type}>, %s: tensor<{N}xf32>) -> "
            f"tensor<{m}x{N}x{elem_type}> {{\n"
            f"%y = sol.matmul %x, %w transpose_b scale_b(%s : tensor<{N}xf32>)"
            f" : tensor<{m}x{K}x{elem_type}>, tensor<{N}x{K}x{code_type}> -> "
            f"tensor<{m}x{N}x{elem_type}>\n"
            f"return %y : tensor<{m}x{N}x{elem_type}>\n}}\n}}\n")


def is_special_code(codes, torch_code_type):
    """NaN codes, and e5m2's infinities."""
    return ~torch.isfinite(codes.view(torch_code_type).float())


def weight_codes(m, torch_code_type):
    """[N, K] uint8 codes as the docstring lays them out."""
    n_idx = torch.arange(N).unsqueeze(1)
    k_idx = torch.arange(K).unsqueeze(0)
    codes = ((n_idx * m + k_idx) % 256).to(torch.uint8)
    codes[:, m:] = 0
    nan_code = torch.tensor([0x7F], dtype=torch.uint8)
    if torch_code_type == torch.float8_e5m2:
        nan_code = torch.tensor([0x7E], dtype=torch.uint8)
    poisoned = n_idx.squeeze(1) % 7 == 3
    special = is_special_code(codes, torch_code_type)
    keep = poisoned.unsqueeze(1).expand_as(codes)
    codes[special & ~keep] = 0
    codes[poisoned, K - 1] = nan_code
    return codes


def one_hot(m):
    """[m, K] float64: row i selects k = i."""
    x = torch.zeros(m, K, dtype=torch.float64)
    x[torch.arange(m), torch.arange(m)] = 1
    return x


def column_scale():
    """Powers of two: exact in every output type."""
    return 2.0 ** (torch.arange(N) % 5 - 2).double()


def reference(m, codes, torch_code_type):
    """float64 [m, N]: the one-hot product with the codes' values, term by
    term, so 0 * NaN and 0 * Inf are NaN as IEEE has them (a BLAS may skip
    zeros)."""
    values = codes.view(torch_code_type).double()
    return ((one_hot(m).unsqueeze(1) * values.unsqueeze(0)).sum(-1)
            * column_scale())


def check(path, m, code_name, torch_code_type, elem_name, torch_elem_type):
    import sol
    codes = weight_codes(m, torch_code_type)
    row_nan = torch.isnan(codes.view(torch_code_type).double()).any(dim=1)
    scale = column_scale()
    x = one_hot(m)
    ref = reference(m, codes, torch_code_type)
    kernels = sol.compile(module(m, code_name, elem_name),
                          options=f"paths={path}").kernels
    assert len(kernels) == 1, f"{len(kernels)} kernels"
    kernel = kernels[0]
    plan = kernel.manifest["plan"]
    assert plan["path"] == path, f"planned {plan['path']}"
    out = torch.full((m, N), 12345.0, dtype=torch_elem_type, device="cuda")
    kernel.launch(x.to(torch_elem_type).cuda(), codes.view(torch_code_type).cuda(),
                  scale.float().cuda(), out)
    torch.cuda.synchronize()
    got = out.double().cpu()
    same = (got == ref) | (torch.isnan(got) & torch.isnan(ref))
    bad = int((~same).sum())
    nan_columns = int(row_nan.sum())
    detail = ""
    if bad:
        i, j = (~same).nonzero()[0].tolist()
        detail = (f" first at m={i} n={j} (code 0x{int(codes[j, i]):02x}):"
                  f" got {got[i, j].item()} want {ref[i, j].item()}")
    print(f"{'PASS' if not bad else 'FAIL'} {path} m={m} {code_name} x "
          f"{elem_name}: {plan['tile']} {bad} of {got.numel()} differ, "
          f"{nan_columns} NaN columns{detail}", flush=True)
    return bad == 0


def main():
    import sol
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()
    failures = total = 0
    for path, m in CASES:
        for code_name, code_type, elem_name, elem_type in KINDS:
            total += 1
            try:
                failures += not check(path, m, code_name, code_type,
                                      elem_name, elem_type)
            except (sol.SolError, AssertionError) as error:
                failures += 1
                print(f"FAIL {path} m={m} {code_name} x {elem_name}: "
                      f"{str(error)[:300]}", flush=True)
    print(f"fp8_codes: {total - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
