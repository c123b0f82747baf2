#!/usr/bin/env python3
"""Independent reference for cpu-numerics.mlir, in pure Python (no numpy).

Reads mlir-runner's output (each kernel's name, then its printMemrefF16 dump)
on stdin, recomputes every kernel from the driver's input formula and prints,
per kernel, the element count, how many elements differ from the reference,
the largest relative error, and whether it is within the kernel's bound.

Rounding follows sol's semantics: inputs and outputs are f16 (struct 'e',
round to nearest even); the matmul accumulates f16 products (exact in f32)
in f32, k in order, each sum rounded to f32 (struct 'f'); the epilogue runs
in f32 without rounding between ops (here: in double, which the bound covers)
and rounds once to f16.
"""

import math
import re
import struct
import sys


def f16(v):
    return struct.unpack("e", struct.pack("e", v))[0]


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def buffer(n, a, b, p, q):
    """The driver's inputs: v[i] = ((a*i + b) mod p - q) / 16, exact in f16."""
    return [f16(((a * i + b) % p - q) / 16.0) for i in range(n)]


def matmul_f32(x, w, m, n, k, transpose_b):
    """x[m,k] @ w (w[k,n], or w[n,k] under transpose_b), f32 accumulation."""
    out = []
    for i in range(m):
        for j in range(n):
            acc = 0.0
            for kk in range(k):
                wv = w[j * k + kk] if transpose_b else w[kk * n + j]
                acc = f32(acc + f32(x[i * k + kk] * wv))
            out.append(acc)
    return out


def oproj():
    x = buffer(120, 7, 3, 17, 8)
    w = buffer(64, 5, 1, 13, 7)
    r = buffer(120, 4, 9, 9, 4)
    acc = matmul_f32(x, w, 15, 8, 8, transpose_b=True)
    return [f16(f32(a + rv)) for a, rv in zip(acc, r)]


def gelu_tanh(v):
    return 0.5 * v * (1.0 + math.tanh(0.7978845608028654 * (v + 0.044715 * v**3)))


def mlp():
    x = buffer(40, 11, 5, 13, 6)
    w = buffer(64, 3, 2, 11, 5)
    bias = buffer(8, 5, 3, 9, 4)
    scale = buffer(5, 3, 8, 7, 0)
    acc = matmul_f32(x, w, 5, 8, 8, transpose_b=False)
    out = []
    for i in range(5):
        for j in range(8):
            out.append(f16(gelu_tanh(acc[i * 8 + j] + bias[j]) * scale[i]))
    return out


# name -> (reference, bound on the relative error)
KERNELS = {
    # Same operations in the same order: bit-exact.
    "oproj_matmul_0": (oproj, 0.0),
    # tanh from libm vs Python in double: two f16 ulps.
    "mlp_matmul_0": (mlp, 2.0**-9),
}


def parse(text):
    """{kernel name: [values]} from the names and printMemrefF16 dumps."""
    results = {}
    for name, data in re.findall(r"^(\w+)\n[^\n]*data = \n\[([^\]]*)\]", text, re.M):
        results[name] = [float(v) for v in data.split(",")]
    return results


def main():
    results = parse(sys.stdin.read())
    for name, (reference, bound) in KERNELS.items():
        got = results.get(name)
        if got is None:
            print(f"{name}: missing from the output")
            continue
        ref = reference()
        if len(got) != len(ref):
            print(f"{name}: {len(got)} elements, expected {len(ref)}")
            continue
        mismatches = 0
        max_rel = 0.0
        for g, e in zip(got, ref):
            g = f16(g)  # printed with 6 digits: round back to the f16 value
            if g != e:
                mismatches += 1
            max_rel = max(max_rel, abs(g - e) / max(abs(e), 2.0**-4))
        print(f"{name}: {len(got)} elements, mismatches {mismatches}, "
              f"max rel err {max_rel:.3g}")
        print(f"{name} within bound: {'yes' if max_rel <= bound else 'no'}")


if __name__ == "__main__":
    main()
