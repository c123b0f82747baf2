#!/usr/bin/env python3
"""Writes the correctness matrix: one sol module, one function per case.

  scripts/gen-matrix.py --profile=gpu|cpu <out.mlir>

Each case is a function in the sol dialect under #sol.target<"h200">: every
matmul epilogue pattern the fusion tests pin (residual, bias + GELU in both
forms, per-row scale + ReLU, a cast to f32, a batched B, a kernel with two
outputs, the [K, N] layout) and every elementwise op with broadcasting, in
f16, bf16 and f32, over M in {1, 7, 64, 4097} (and 3, 16, 29 for swap_ab's
token tiles), the N and K of the DESIGN.md
section 7 workloads and odd ones (77, 129, 200, 1000). The `cpu` profile
keeps the same patterns on small odd shapes, for the host backend in CI.

With --dynamic the same cases are written with `?` for M
(docs/dynamic-shapes.md): the cases that differ only in M become one
function, `<pattern>_<dtype>_dynx<n>x<k>`, whose `sol.dim_range` runs from 1
to the largest of their Ms and hints each of them (the Ms the check runs the
kernels at: a manifest's `dynamic_dim.hints`). The [B, S, K] activation
pattern takes its batch as the dynamic dim (rows = dim x S: one function per
S); a batched B takes a static A, so bmm_residual has no dynamic case.
"""
import argparse
import re

TARGET = 'module attributes {sol.target = #sol.target<"h200">} {\n'


def t(shape, dtype):
    return "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + dtype + ">"


class Fn:
    """Builds one function body, SSA value by value."""

    def __init__(self, name):
        self.name = name
        self.args = []
        self.lines = []
        self.n = 0

    def arg(self, shape, dtype):
        v = "%a{}".format(len(self.args))
        self.args.append((v, shape, dtype))
        return (v, shape, dtype)

    def op(self, text, shape, dtype):
        v = "%v{}".format(self.n)
        self.n += 1
        self.lines.append("    {} = {}".format(v, text))
        return (v, shape, dtype)

    def matmul(self, a, b, transpose_b, out_shape):
        tb = " transpose_b" if transpose_b else ""
        return self.op("sol.matmul {}, {}{} : {}, {} -> {}".format(
            a[0], b[0], tb, t(a[1], a[2]), t(b[1], b[2]), t(out_shape, a[2])),
            out_shape, a[2])

    def binary(self, name, x, y, out_shape):
        return self.op("sol.{} {}, {} : {}, {} -> {}".format(
            name, x[0], y[0], t(x[1], x[2]), t(y[1], y[2]), t(out_shape, x[2])),
            out_shape, x[2])

    def unary(self, name, x):
        if name.startswith("gelu_"):
            return self.op("sol.gelu {} {} : {}".format(
                name[5:], x[0], t(x[1], x[2])), x[1], x[2])
        return self.op("sol.{} {} : {}".format(name, x[0], t(x[1], x[2])), x[1], x[2])

    def cast(self, x, dtype):
        return self.op("sol.cast {} : {} to {}".format(
            x[0], t(x[1], x[2]), t(x[1], dtype)), x[1], dtype)

    def constant(self, value, dtype):
        return self.op("sol.constant {} : {}".format(value, dtype), [], dtype)

    def text(self, results):
        sig = ", ".join("{}: {}".format(v, t(s, d)) for v, s, d in self.args)
        res = ", ".join(t(s, d) for _, s, d in results)
        body = "\n".join(self.lines)
        ret = "    return {} : {}".format(", ".join(v for v, _, _ in results), res)
        return "  func.func @{}({}) -> ({}) {{\n{}\n{}\n  }}\n".format(
            self.name, sig, res, body, ret)


def matmul_case(pattern, dtype, m, n, k, batch=2):
    f = Fn(pattern)
    if pattern == "bmm_residual":
        x = f.arg([2, m, k], dtype)
        w = f.arg([2, k, n], dtype)
        r = f.arg([2, m, n], dtype)
        y = f.matmul(x, w, False, [2, m, n])
        return f.text([f.binary("add", y, r, [2, m, n])])
    if pattern == "mm_residual_batched_lhs":
        # The seed's [B, S, K] activations: batch dims fold into M.
        x = f.arg([batch, m, k], dtype)
        w = f.arg([n, k], dtype)
        r = f.arg([batch, m, n], dtype)
        y = f.matmul(x, w, True, [batch, m, n])
        return f.text([f.binary("add", y, r, [batch, m, n])])
    x = f.arg([m, k], dtype)
    if pattern == "mm_swiglu":
        # Sibling matmuls over one x: one kernel where the target has a
        # generator for the pair (sm_90a, at least 128 rows).
        wg = f.arg([n, k], dtype)
        wu = f.arg([n, k], dtype)
        g = f.matmul(x, wg, True, [m, n])
        u = f.matmul(x, wu, True, [m, n])
        return f.text([f.binary("mul", f.unary("silu", g), u, [m, n])])
    if pattern == "mm_swiglu_two_outputs":
        # The pair, the up projection's result also written: the epilogue
        # stores the second accumulator half as it is.
        wg = f.arg([n, k], dtype)
        wu = f.arg([n, k], dtype)
        g = f.matmul(x, wg, True, [m, n])
        u = f.matmul(x, wu, True, [m, n])
        return f.text([f.binary("mul", f.unary("silu", g), u, [m, n]), u])
    if pattern == "mm_swiglu_bias":
        # The pair up projection first, each with a bias: the generator's
        # first accumulator half is then the up projection's.
        wu = f.arg([n, k], dtype)
        bu = f.arg([n], dtype)
        wg = f.arg([n, k], dtype)
        bg = f.arg([n], dtype)
        u = f.binary("add", f.matmul(x, wu, True, [m, n]), bu, [m, n])
        g = f.binary("add", f.matmul(x, wg, True, [m, n]), bg, [m, n])
        return f.text([f.binary("mul", u, f.unary("silu", g), [m, n])])
    if pattern == "mm_kn_bias_gelu_erf":
        w = f.arg([k, n], dtype)
        y = f.matmul(x, w, False, [m, n])
    else:
        w = f.arg([n, k], dtype)
        y = f.matmul(x, w, True, [m, n])
    if pattern == "mm":
        return f.text([y])
    if pattern == "mm_residual":
        r = f.arg([m, n], dtype)
        return f.text([f.binary("add", y, r, [m, n])])
    if pattern in ("mm_bias_gelu_tanh", "mm_kn_bias_gelu_erf"):
        b = f.arg([n], dtype)
        z = f.binary("add", y, b, [m, n])
        return f.text([f.unary("gelu_tanh" if "tanh" in pattern else "gelu_erf", z)])
    if pattern == "mm_rowscale_relu":
        s = f.arg([m, 1], dtype)
        return f.text([f.unary("relu", f.binary("mul", y, s, [m, n]))])
    if pattern == "mm_to_f32":
        c = f.cast(y, "f32") if dtype != "f32" else f.unary("neg", y)
        return f.text([c])
    if pattern == "mm_two_outputs":
        r = f.arg([m, n], dtype)
        return f.text([f.binary("add", y, r, [m, n]), y])
    raise ValueError(pattern)


UNARY = ["neg", "abs", "exp", "tanh", "erf", "sigmoid", "relu", "silu", "gelu_erf", "gelu_tanh"]
BINARY = {"add": "row", "sub": "col", "mul": "full", "div": "row", "max": "col", "min": "full"}


def elementwise_case(pattern, dtype, m, n):
    f = Fn(pattern)
    x = f.arg([m, n], dtype)
    if pattern in UNARY:
        return f.text([f.unary(pattern, x)])
    if pattern in BINARY:
        shape = {"row": [n], "col": [m, 1], "full": [m, n]}[BINARY[pattern]]
        y = f.arg(shape, dtype)
        return f.text([f.binary(pattern, x, y, [m, n])])
    if pattern == "swiglu_residual":
        u = f.arg([m, n], dtype)
        r = f.arg([m, n], dtype)
        s = f.binary("mul", f.unary("silu", x), u, [m, n])
        return f.text([f.binary("add", s, r, [m, n])])
    if pattern == "scale_shift_constants":
        half = f.constant("0.5", dtype)
        one = f.constant("1.0", dtype)
        return f.text([f.binary("add", f.binary("mul", x, half, [m, n]), one, [m, n])])
    if pattern == "cast_chain":
        # Widen, compute, narrow: the cast in the middle must round.
        other = "f32" if dtype != "f32" else "bf16"
        c = f.cast(x, other)
        e = f.unary("exp", c)
        return f.text([f.cast(e, dtype)])
    raise ValueError(pattern)


MATMUL_PATTERNS = ["mm", "mm_residual", "mm_bias_gelu_tanh", "mm_kn_bias_gelu_erf",
                   "mm_rowscale_relu", "mm_to_f32", "mm_two_outputs",
                   "mm_residual_batched_lhs", "bmm_residual", "mm_swiglu",
                   "mm_swiglu_bias", "mm_swiglu_two_outputs"]
EW_PATTERNS = UNARY + list(BINARY) + ["swiglu_residual", "scale_shift_constants", "cast_chain"]
DTYPES = ["f16", "bf16", "f32"]
#: The patterns and the N x K the small-M cases add (with 1000 x 1000).
SMALL_M_PATTERNS = ["mm_residual", "mm_bias_gelu_tanh", "mm_two_outputs", "mm_to_f32"]
SMALL_M_NK = [(2560, 2560), (256, 7168)]
#: The patterns and rows of the swap_ab cases: one, two and four of its n8
#: token tiles, partly filled (3, 29) and full (16).
SWAP_AB_PATTERNS = SMALL_M_PATTERNS + ["mm", "mm_rowscale_relu"]
SWAP_AB_MS = [3, 16, 29]


def cases(profile):
    if profile == "gpu":
        ms = [1, 7, 64, 4097]
        workload_nk = [(2560, 2560), (10240, 2560)]
        odd_nk = [(77, 200), (1000, 1000), (130, 129)]
        ew_shapes = [(7, 77), (4097, 1000)]
    else:
        ms = [1, 7, 33]
        workload_nk = []
        odd_nk = [(77, 40), (24, 129)]
        ew_shapes = [(7, 77)]
    for dtype in DTYPES:
        for pattern in MATMUL_PATTERNS:
            nks = list(odd_nk)
            # The [K, N] weight at the workload shapes too: where the TMA
            # kernels read it N-major.
            if pattern in ("mm_residual", "mm_bias_gelu_tanh", "mm_kn_bias_gelu_erf"):
                nks += workload_nk
            # Sibling matmuls fuse from one 128-row tile up.
            pattern_ms = ms + [129] if pattern.startswith("mm_swiglu") else ms
            for m in pattern_ms:
                for n, k in nks:
                    if pattern in ("bmm_residual", "mm_residual_batched_lhs") and m == 4097:
                        continue
                    name = "{}_{}_{}x{}x{}".format(pattern, dtype, m, n, k)
                    yield name, matmul_case(pattern, dtype, m, n, k)
            # Small M against a wide or a deep weight (issue 19), where the
            # TMA kernels' 64-row tiles and split K (small-m-tma) run: 129
            # rows (a 64-row tile's third, partial, row of tiles) and N x K
            # of a decode o_proj and of a narrow deep weight, in the dtypes
            # with tensor cores.
            if profile == "gpu" and dtype != "f32" and pattern in SMALL_M_PATTERNS:
                for m in (7, 64, 129):
                    for n, k in [(1000, 1000)] + SMALL_M_NK:
                        name = "{}_{}_{}x{}x{}".format(pattern, dtype, m, n, k)
                        if m in pattern_ms and (n, k) in nks:
                            continue  # already above
                        yield name, matmul_case(pattern, dtype, m, n, k)
            # Decode rows for swap_ab (the weight as mma.sync's M operand):
            # partial and full n8 tiles of tokens, narrow and deep weights.
            if profile == "gpu" and dtype != "f32" and pattern in SWAP_AB_PATTERNS:
                for m in SWAP_AB_MS:
                    for n, k in [(77, 200), (1000, 1000)] + SMALL_M_NK:
                        name = "{}_{}_{}x{}x{}".format(pattern, dtype, m, n, k)
                        yield name, matmul_case(pattern, dtype, m, n, k)
        for pattern in EW_PATTERNS:
            for m, n in ew_shapes:
                yield "{}_{}_{}x{}".format(pattern, dtype, m, n), elementwise_case(pattern, dtype, m, n)


#: fp8 operand kinds of the --fp8 cases (A's, B's) and their names.
FP8_KINDS = {"e4m3": ("f8E4M3FN", "f8E4M3FN"), "e5m2e4m3": ("f8E5M2", "f8E4M3FN"),
             "e4m3e5m2": ("f8E4M3FN", "f8E5M2")}
FP8_PATTERNS = ["qmm", "qmm_bias_gelu_tanh"]
#: fp8 results (docs/fp8.md, "Scales"): the matmul's own (`qmm_out`:
#: acc * scale_a * scale_b / scale_out, rounded and saturated in A's kind)
#: and a cast at the end of a bf16 epilogue (`qmm_bias_gelu_tanh_quant`:
#: bias, GELU, times a bf16 scalar, cast to A's kind).
FP8_RESULT_PATTERNS = ["qmm_out", "qmm_bias_gelu_tanh_quant"]


def fp8_operands(pattern, kinds, scales, m, n, k):
    """A function `pattern` with an fp8 matmul's operands: A [m, k] and B
    [n, k] of `kinds`, and their scales per tensor (`tensor`: scale_a [],
    scale_b [1]), per token and channel (`token`: [m, 1], [n]) or block-wise
    (`block`: [m, ceil(k/128)], [ceil(n/128), ceil(k/128)]; docs/fp8.md,
    "Block-wise scales")."""
    a_type, b_type = FP8_KINDS[kinds]
    f = Fn(pattern)
    x = f.arg([m, k], a_type)
    w = f.arg([n, k], b_type)
    blocks = lambda size: -(-size // 128)
    sa = f.arg({"tensor": [], "token": [m, 1],
                "block": [m, blocks(k)]}[scales], "f32")
    sb = f.arg({"tensor": [1], "token": [n],
                "block": [blocks(n), blocks(k)]}[scales], "f32")
    return f, (a_type, b_type), x, w, sa, sb


def fp8_case(pattern, kinds, scales, m, n, k):
    """An fp8 matmul (docs/fp8.md) with a bf16 result: its dequantisation
    scales per tensor (`tensor`: scale_a [], scale_b [1]) or per token and
    channel (`token`: scale_a [m, 1], scale_b [n]), plain or with a bf16
    bias and tanh GELU after them."""
    f, (a_type, b_type), x, w, sa, sb = fp8_operands(pattern, kinds, scales, m, n, k)
    y = f.op("sol.matmul {}, {} transpose_b scale_a({} : {}) scale_b({} : {}) : {}, {} -> {}".format(
        x[0], w[0], sa[0], t(sa[1], "f32"), sb[0], t(sb[1], "f32"),
        t(x[1], a_type), t(w[1], b_type), t([m, n], "bf16")), [m, n], "bf16")
    if pattern == "qmm_swiglu":
        # Sibling matmuls over one x (and its one scale_a), each weight with
        # its own scale_b: one kernel from one 128-row tile up.
        wu = f.arg([n, k], b_type)
        su = f.arg(sb[1], "f32")
        u = f.op("sol.matmul {}, {} transpose_b scale_a({} : {}) scale_b({} : {}) : {}, {} -> {}".format(
            x[0], wu[0], sa[0], t(sa[1], "f32"), su[0], t(su[1], "f32"),
            t(x[1], a_type), t(wu[1], b_type), t([m, n], "bf16")), [m, n], "bf16")
        return f.text([f.binary("mul", f.unary("silu", y), u, [m, n])])
    if pattern == "qmm":
        return f.text([y])
    if pattern == "qmm_bias_gelu_tanh":
        b = f.arg([n], "bf16")
        return f.text([f.unary("gelu_tanh", f.binary("add", y, b, [m, n]))])
    raise ValueError(pattern)


def fp8_result_case(pattern, kinds, scales, m, n, k):
    """An fp8 matmul whose result is fp8 in A's kind (FP8_RESULT_PATTERNS),
    its scales as fp8_case's."""
    f, (a_type, b_type), x, w, sa, sb = fp8_operands(pattern, kinds, scales, m, n, k)
    scales_text = "scale_a({} : {}) scale_b({} : {})".format(
        sa[0], t(sa[1], "f32"), sb[0], t(sb[1], "f32"))
    if pattern == "qmm_out":
        so = f.arg([], "f32")
        return f.text([f.op(
            "sol.matmul {}, {} transpose_b {} scale_out({} : {}) : {}, {} -> {}".format(
                x[0], w[0], scales_text, so[0], t([], "f32"), t(x[1], a_type),
                t(w[1], b_type), t([m, n], a_type)), [m, n], a_type)])
    if pattern == "qmm_bias_gelu_tanh_quant":
        b = f.arg([n], "bf16")
        inv = f.arg([], "bf16")
        y = f.op("sol.matmul {}, {} transpose_b {} : {}, {} -> {}".format(
            x[0], w[0], scales_text, t(x[1], a_type), t(w[1], b_type),
            t([m, n], "bf16")), [m, n], "bf16")
        g = f.unary("gelu_tanh", f.binary("add", y, b, [m, n]))
        return f.text([f.cast(f.binary("mul", g, inv, [m, n]), a_type)])
    raise ValueError(pattern)


#: fp8 casts alone, elementwise kernels (docs/fp8.md, "sol.cast"): static
#: quantisation (`quant`: bf16 times a bf16 scalar, cast to the kind),
#: the same past the kind's largest value (`quant_saturate`: times 600 for
#: e4m3, 80000 for e5m2, so most values saturate), and dequantisation
#: (`dequant`: the codes to f32, times an f32 scalar, to bf16).
FP8_CAST_PATTERNS = ["quant", "quant_saturate", "dequant"]
FP8_CAST_KINDS = {"e4m3": ("f8E4M3FN", 600.0), "e5m2": ("f8E5M2", 80000.0)}


def fp8_cast_case(pattern, kind, m, n):
    fp8, saturating = FP8_CAST_KINDS[kind]
    f = Fn(pattern)
    if pattern == "dequant":
        q = f.arg([m, n], fp8)
        s = f.arg([], "f32")
        return f.text([f.cast(f.binary("mul", f.cast(q, "f32"), s, [m, n]), "bf16")])
    x = f.arg([m, n], "bf16")
    if pattern == "quant":
        s = f.arg([], "bf16")
    elif pattern == "quant_saturate":
        s = f.constant("{:e}".format(saturating), "bf16")
    else:
        raise ValueError(pattern)
    return f.text([f.cast(f.binary("mul", x, s, [m, n]), fp8)])


#: weight-only fp8 (docs/fp8.md, "Weight-only"): A's 16-bit type, B's codes.
WEIGHT_ONLY_KINDS = {"bf16e4m3": ("bf16", "f8E4M3FN"),
                     "f16e5m2": ("f16", "f8E5M2")}


def weight_only_case(pattern, kinds, scales, m, n, k):
    """A 16-bit A against fp8 weight codes with their scale_b per tensor
    (`tensor`, [1]) or per output channel (`channel`, [n]), the result in
    A's type; plain (`wmm`) or with a bias and a residual (`wmm_bias_residual`)."""
    a_type, b_type = WEIGHT_ONLY_KINDS[kinds]
    f = Fn(pattern)
    x = f.arg([m, k], a_type)
    w = f.arg([n, k], b_type)
    sb = f.arg([1] if scales == "tensor" else [n], "f32")
    y = f.op("sol.matmul {}, {} transpose_b scale_b({} : {}) : {}, {} -> {}".format(
        x[0], w[0], sb[0], t(sb[1], "f32"), t(x[1], a_type), t(w[1], b_type),
        t([m, n], a_type)), [m, n], a_type)
    if pattern == "wmm":
        return f.text([y])
    if pattern == "wmm_bias_residual":
        b = f.arg([n], a_type)
        r = f.arg([m, n], a_type)
        return f.text([f.binary("add", f.binary("add", y, b, [m, n]), r, [m, n])])
    raise ValueError(pattern)


def weight_only_cases(profile, dynamic):
    """Weight-only fp8 at decode's rows (gemv at 1-16, swap_ab at 1-32 and
    its stacked 32-row blocks past them: the paths that convert the weight
    alone), K a multiple of 16 (16 codes per 128-bit load). The GPU profile
    takes every pattern x scale x shape; the CPU one (CI's time) the plain
    matmul per tensor at the first shape and the epilogue per channel at
    the odd one."""
    ms = [1, 7, 16, 29, 32, 40, 64] if profile == "gpu" else [1, 7, 29, 40]
    # K = 8192: long enough for swap_ab's doubled trips of codes (16 warps of
    # 8 loads) at 1-16 rows.
    nks = ([(1000, 1024), (77, 208), (208, 8192)] if profile == "gpu"
           else [(24, 48), (77, 80)])
    combos = [(p, s, nk) for p in ("wmm", "wmm_bias_residual")
              for s in ("tensor", "channel") for nk in nks]
    if profile != "gpu":
        combos = [("wmm", "tensor", nks[0]), ("wmm_bias_residual", "channel", nks[1])]
    for kinds in WEIGHT_ONLY_KINDS:
        for pattern, scales, (n, k) in combos:
            yield from per_m(weight_only_case, pattern, kinds, scales, n, k, ms, dynamic)


def per_m(make, pattern, kinds, scales, n, k, ms, dynamic):
    """`make`'s case at each M of `ms`, or with `dynamic` one function with
    `?` for M hinting them all, named pattern_kinds_scales_MxNxK."""
    if dynamic:
        name = "{}_{}_{}_{}x{}x{}".format(pattern, kinds, scales, DYN, n, k)
        yield name, with_dim_range(make(pattern, kinds, scales, "?", n, k), 1, max(ms), ms)
        return
    for m in ms:
        name = "{}_{}_{}_{}x{}x{}".format(pattern, kinds, scales, m, n, k)
        yield name, make(pattern, kinds, scales, m, n, k)


def fp8_cases(profile, dynamic=False):
    """The fp8 matmuls (--fp8): e4m3 x e4m3 over every pattern, scale kind
    and shape; the mixed kinds on the plain pattern at the first shape; a
    sibling pair (SwiGLU) from 129 rows at the first shape. K is
    a multiple of 16 (TMA's 16-byte rows), not always of the 128-deep K
    tile; N is odd in one shape (scalar epilogue stores). With `dynamic`, M
    is `?` (one function per shape, hinting every M)."""
    if profile == "gpu":
        # 1 and 16: the gemv path's ends (7 is gemv too at most shapes).
        ms = [1, 7, 16, 64, 129, 4097]
        nks = [(1000, 1024), (2560, 2560), (77, 208)]
    else:
        ms = [1, 7, 33]
        nks = [(24, 48), (77, 80)]
    for kinds in FP8_KINDS:
        for pattern in FP8_PATTERNS if kinds == "e4m3" else FP8_PATTERNS[:1]:
            for scales in ("tensor", "token"):
                for n, k in nks if kinds == "e4m3" else nks[:1]:
                    yield from per_m(fp8_case, pattern, kinds, scales, n, k, ms, dynamic)
    # fp8 results: e4m3 and e5m2 (from the e5m2 x e4m3 operands), per
    # tensor and token, at the first shape and the odd one (the CPU
    # profile: three of those combinations).
    combos = [(p, kinds, scales, nk) for p in FP8_RESULT_PATTERNS
              for kinds in ("e4m3", "e5m2e4m3") for scales in ("tensor", "token")
              for nk in (nks[0], nks[-1])]
    if profile != "gpu":
        combos = [("qmm_out", "e4m3", "tensor", nks[0]),
                  ("qmm_out", "e5m2e4m3", "token", nks[-1]),
                  ("qmm_bias_gelu_tanh_quant", "e4m3", "token", nks[-1])]
    for pattern, kinds, scales, (n, k) in combos:
        yield from per_m(fp8_result_case, pattern, kinds, scales, n, k, ms, dynamic)
    # Block-wise scales (wgmma_tma alone promotes them): K past one 128-deep
    # block, its last block partial; N past one block of B's scales.
    for pattern in FP8_PATTERNS[:2]:
        for n, k in [nk for nk in nks if nk[1] > 128] or [(200, 304)]:
            yield from per_m(fp8_case, pattern, "e4m3", "block", n, k, ms, dynamic)
    if not dynamic:
        ew_shapes = ([(1, 1024), (129, 2560), (4097, 77)] if profile == "gpu"
                     else [(7, 48), (33, 77)])
        for pattern in FP8_CAST_PATTERNS:
            for kind in FP8_CAST_KINDS:
                for m, n in ew_shapes:
                    yield "{}_{}_{}x{}".format(pattern, kind, m, n), fp8_cast_case(pattern, kind, m, n)
    yield from weight_only_cases(profile, dynamic)
    # Sibling matmuls, from 129 rows (a partial second 128-row tile).
    if not dynamic:
        n, k = nks[0]
        for scales in ("tensor", "token"):
            for m in [m for m in ms if m > 128] or [129]:
                name = "qmm_swiglu_e4m3_{}_{}x{}x{}".format(scales, m, n, k)
                yield name, fp8_case("qmm_swiglu", "e4m3", scales, m, n, k)


#: The dynamic dim's name in the dynamic cases' function names.
DYN = "dyn"


def with_dim_range(text, lo, hi, hints):
    """`text` (one function) declaring the range of its dynamic dim."""
    attr = "#sol.dim_range<min = {}, max = {}, hints = [{}]>".format(
        lo, hi, ", ".join(str(h) for h in hints))
    return text.replace(") {\n", ") attributes {{sol.dim_range = {}}} {{\n".format(attr), 1)


def dynamic_cases(profile):
    """The cases of `cases(profile)` with `?` for M, one function per group of
    cases that differ only in M."""
    groups = {}
    for name, _ in cases(profile):
        pattern_dtype, shape = name.rsplit("_", 1)
        dims = shape.split("x")
        groups.setdefault((pattern_dtype, tuple(dims[1:])), []).append(int(dims[0]))
    for (pattern_dtype, rest), ms in groups.items():
        dtype = pattern_dtype.rsplit("_", 1)[1]
        pattern = pattern_dtype[:-len(dtype) - 1]
        ints = [int(d) for d in rest]
        if pattern == "bmm_residual":
            continue  # a batched B takes a static A
        if pattern == "mm_residual_batched_lhs":
            # The batch is the dynamic dim; S (the case's M) stays static.
            for m in ms:
                name = "{}_{}x{}".format(pattern_dtype, DYN, "x".join([str(m)] + list(rest)))
                yield name, with_dim_range(
                    matmul_case(pattern, dtype, m, ints[0], ints[1], batch="?"), 1, 2, [1, 2])
            continue
        name = "{}_{}x{}".format(pattern_dtype, DYN, "x".join(rest))
        hints = sorted(set(ms))
        if pattern in MATMUL_PATTERNS:
            text = matmul_case(pattern, dtype, "?", ints[0], ints[1])
        else:
            text = elementwise_case(pattern, dtype, "?", ints[0])
        yield name, with_dim_range(text, 1, max(ms), hints)
        # A sibling pair's set from 128 rows (the torch backend's
        # sibling_sets): there sol-fuse pairs the two matmuls as one
        # dynamic sibling kernel, which a set from 1 row never is.
        big = [m for m in ms if m >= 128]
        if pattern.startswith("mm_swiglu") and big:
            yield name.replace(DYN, DYN + "128"), with_dim_range(
                text, 128, max(big), sorted(set([128] + big)))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", choices=["gpu", "cpu"], default="gpu")
    parser.add_argument("--only", default="",
                        help="keep the cases whose name matches this regex")
    parser.add_argument("--suffix", default="",
                        help="append to every case name (to compile a subset "
                             "again under other sol-tile constraints)")
    parser.add_argument("--dynamic", action="store_true",
                        help="write the cases with a dynamic M (one function "
                             "per group of cases that differ only in M, its "
                             "range 1 to their largest M, hinting each)")
    parser.add_argument("--fp8", action="store_true",
                        help="write the fp8 matmul cases instead (fp8_cases)")
    parser.add_argument("out", help="the module to write, one function per case")
    args = parser.parse_args()
    count = 0
    if args.fp8:
        generated = fp8_cases(args.profile, args.dynamic)
    else:
        generated = (dynamic_cases if args.dynamic else cases)(args.profile)
    with open(args.out, "w") as f:
        f.write(TARGET)
        for name, text in generated:
            if args.only and not re.search(args.only, name):
                continue
            name += args.suffix
            # Name the function after the case: its kernels are named after it.
            f.write(text.replace("func.func @", "func.func @" + name + "__", 1))
            count += 1
        f.write("}\n")
    print("{} cases in {}".format(count, args.out))


if __name__ == "__main__":
    main()
